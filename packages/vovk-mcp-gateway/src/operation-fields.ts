// Decorators that record what a procedure declares of itself in its `@operation` object (OpenAPI readers see it too).
import 'server-only';
import { createDecorator, type VovkSchema } from 'vovk';

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/** A decorator that adds `fields` to the procedure's operation object; REST is unchanged. */
export const recordedInOperation = (fields: Record<string, unknown>) =>
  createDecorator(null, () => (handlerSchema: HandlerSchema) => ({
    ...handlerSchema,
    operationObject: { ...handlerSchema?.operationObject, ...fields },
  }))();
