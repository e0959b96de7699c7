import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

/**
 * The SDK builds an Ajv instance (compiling its meta-schema, ~10 ms) in every Server constructor, only to
 * validate elicitation answers. Build it the first time one is validated instead: start-up and every new
 * HTTP session stay cheap.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.ajv ??= new AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}
