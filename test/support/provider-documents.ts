/** Provider model files for tests: the shipped examples, and a fal endpoint whose every input has a published example. */
import { readFileSync } from 'node:fs';

/** A model file of examples/providers/, parsed. */
export function providerModelFile(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../examples/providers/${file}`, import.meta.url), 'utf8'));
}

export const FAL_IMAGE_EXAMPLE = 'https://v3.fal.media/files/koala/Chls9L2ZnvuipUTEwlnJC.png';
export const FAL_PROMPT_EXAMPLE = 'a cat dressed as a wizard with a background of a mystic forest';

/** A fal image-to-image endpoint's document, written as fal publishes them: examples on every input. */
export const falImageToImage = {
  provider: 'fal',
  endpoint: 'fal-ai/flux/dev/image-to-image',
  openapi: {
    openapi: '3.0.4',
    info: { title: 'Queue OpenAPI for fal-ai/flux/dev/image-to-image', version: '1.0.0' },
    servers: [{ url: 'https://queue.fal.run' }],
    paths: {
      '/fal-ai/flux/dev/image-to-image': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/FluxImageToImageInput' } } } },
          responses: { '200': { description: 'The request status.' } },
        },
      },
    },
    components: {
      schemas: {
        FluxImageToImageInput: {
          title: 'ImageToImageInput',
          type: 'object',
          required: ['prompt', 'image_url'],
          properties: {
            prompt: { title: 'Prompt', type: 'string', description: 'The prompt to generate an image from.', examples: [FAL_PROMPT_EXAMPLE] },
            image_url: { title: 'Image URL', type: 'string', description: 'The URL of the image to generate an image from.', examples: [FAL_IMAGE_EXAMPLE] },
            strength: { title: 'Strength', type: 'number', minimum: 0.01, maximum: 1, default: 0.95, description: 'How much of the initial image is kept.' },
            num_inference_steps: { title: 'Num Inference Steps', type: 'integer', minimum: 10, maximum: 50, default: 40 },
          },
        },
      },
    },
  },
};
