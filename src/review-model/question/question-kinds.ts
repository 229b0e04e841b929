/**
 * The two facts about a question that both the question builder and the reply reading need: what kind of answer
 * it asks for and who raised it. Here, in the pure review model, so the question can be built without the reply
 * reading (src/review/reply/) and the reading can name them without owning them.
 */

/** What kind of answer the question asks for. */
export type ExpectedInput = 'yes_no' | 'single_choice' | 'multi_choice' | 'free_text';

/**
 * Who raised the question. `planner`: a clarification or approval about the request as a whole; an unclear
 * reply may go to the interpreter (layer 2). `disambiguation`: a choice between machine-made candidates; it is
 * checked deterministically only, and a reply that picks none of them is a new request (switch_intent).
 */
export type ReviewSource = 'planner' | 'disambiguation';
