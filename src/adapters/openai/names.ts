/** The openai builder's name, as recorded on runs and used as the registry key. */
export const OPENAI_BUILDER_NAME = 'openai';
