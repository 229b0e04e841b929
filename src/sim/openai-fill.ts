/**
 * How the simulated LLM answers: deterministically, from the user message alone, an object that fits the
 * `response_format` JSON Schema. String fields that look like the user's prompt get the prompt; file fields
 * (`format: "uri"` in the description, or an image/audio/video/mask/file name) get the attachment URLs in
 * order; everything else is null where null is allowed, else the smallest valid value.
 * It is a stand-in for a well-behaved LLM, not a model of one: no invention, ever.
 */
export type JsonObject = Record<string, unknown>;

/** What the sim understood of the user message. */
export interface SimRequestView {
  prompt: string;
  urls: string[];
}

const PROMPT_NAME = /(^|_)(prompt|text|caption|query|question|instructions?|message)($|_)/i;
const NOT_THE_PROMPT = /negative|system|initial|mask|style/i;
const FILE_NAME = /image|audio|video|mask|file|url|img|photo|picture/i;

/**
 * Reads the user message: Vetted's builder sends "User Request:" followed by JSON; any other client's text
 * is taken as the prompt, with the URLs in it as the attachments.
 */
export function readUserMessage(text: string): SimRequestView {
  const start = text.indexOf('{');
  if (start >= 0) {
    try {
      const parsed = JSON.parse(text.slice(start)) as JsonObject;
      const attachments = Array.isArray(parsed.attachments) ? parsed.attachments : [];
      const conversation = Array.isArray(parsed.conversation) ? parsed.conversation.filter((t): t is string => typeof t === 'string') : [];
      const prompt = typeof parsed.prompt === 'string' && parsed.prompt !== '' ? parsed.prompt : (conversation.at(-1) ?? '');
      const urls = attachments.map((a) => (a && typeof a === 'object' ? (a as JsonObject).url : undefined)).filter((u): u is string => typeof u === 'string');
      return { prompt, urls };
    } catch {
      // Not Vetted's format: fall through to plain text.
    }
  }
  return { prompt: text.trim(), urls: text.match(/https?:\/\/\S+/g) ?? [] };
}

/** Fills an object schema from the request; `used` tracks URLs already placed. */
export function fillObject(schema: JsonObject, view: SimRequestView, used = new Set<string>()): JsonObject {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const out: JsonObject = {};
  for (const [name, node] of Object.entries(properties)) {
    if (isObject(node)) out[name] = fillNode(name, node, view, used);
  }
  return out;
}

function fillNode(name: string, node: JsonObject, view: SimRequestView, used: Set<string>): unknown {
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.filter(isObject);
    const real = branches.find((b) => b.type !== 'null') ?? {};
    const value = fillNode(name, { ...real, description: node.description ?? real.description }, view, used);
    return value === null && !branches.some((b) => b.type === 'null') ? minimal(real) : value;
  }
  const types = typesOf(node);
  const nullable = types.includes('null') || (Array.isArray(node.enum) && node.enum.includes(null));
  const description = typeof node.description === 'string' ? node.description : '';
  if (types.includes('string') && !Array.isArray(node.enum)) {
    // `input` alone is the text itself (OpenAI's speech body); `input_image` and the like are not.
    if ((PROMPT_NAME.test(name) || name === 'input') && !NOT_THE_PROMPT.test(name) && view.prompt !== '') return view.prompt;
    if (/format: "?uri/.test(description) || FILE_NAME.test(name)) {
      const url = view.urls.find((u) => !used.has(u));
      if (url !== undefined) {
        used.add(url);
        return url;
      }
    }
  }
  if (types.includes('object') && isObject(node.properties) && !nullable) return fillObject(node, view, used);
  return nullable ? null : minimal(node);
}

/** The smallest value of the node's type: what a required, non-nullable field gets when the user said nothing. */
function minimal(node: JsonObject): unknown {
  if (Array.isArray(node.enum)) return node.enum.find((member) => member !== null) ?? null;
  const type = typesOf(node).find((t) => t !== 'null');
  switch (type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return fillObject(node, { prompt: '', urls: [] });
    case undefined:
    default:
      return null;
  }
}

function typesOf(node: JsonObject): string[] {
  if (typeof node.type === 'string') return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === 'string') : [];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
