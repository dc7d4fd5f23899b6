/** The AI pages' build-time settings: whether a model is configured, and which. */
import { config } from '../config';

/** The model the AI pages name, or null when LLM_BASE_URL, LLM_API_KEY and LLM_MODEL are not all set. */
export function siteModel(): string | null {
  return config().llm?.model ?? null;
}
