import { courseSession } from './course-session.js';
import type { Scenario } from './scenario.js';

export { courseSession, PASSES_ARGS } from './course-session.js';
export { EPISODE, EPISODE_TOPIC, EPISODE_TOPIC_URI, episode } from './episode.js';
export type { HostContext, HostScenario, Scenario, ScenarioContext } from './scenario.js';

/** Scripted scenarios by name; the default one replays the course's session. */
export const SCENARIOS: Readonly<Record<string, Scenario>> = { [courseSession.name]: courseSession };
export const DEFAULT_SCENARIO = courseSession;
