import { z } from 'zod';
import { endpoint } from '../rest/endpoint.js';
import {
  EventPageSchema,
  HubHealthSchema,
  isTopicName,
  PublishRequestSchema,
  PublishResultSchema,
  ReadQuerySchema,
  TOPIC_MAX_LENGTH,
  TopicListSchema,
  TopicSummarySchema,
} from './schemas.js';

/** A topic in a path: the rule said whole, so a refusal teaches the model what a topic looks like. */
const TopicParamSchema = z.string().refine(isTopicName, {
  message:
    `Nombre de tópico inválido. Un tópico tiene de 1 a ${TOPIC_MAX_LENGTH} caracteres: minúsculas y ` +
    'dígitos, con palabras unidas por un punto o un guion (p. ej. misiones.alertas)',
});
const topic = z.object({ topic: TopicParamSchema });

/** The event hub's REST API: what HubClient sends and the hub system routes. */
export const hubApi = {
  health: endpoint({ method: 'GET', path: '/healthz', response: HubHealthSchema }),
  listTopics: endpoint({ method: 'GET', path: '/v1/topics', response: TopicListSchema }),
  getTopic: endpoint({
    method: 'GET',
    path: '/v1/topics/:topic',
    params: topic,
    response: TopicSummarySchema,
  }),
  publish: endpoint({
    method: 'POST',
    path: '/v1/topics/:topic/events',
    params: topic,
    body: PublishRequestSchema,
    response: PublishResultSchema,
  }),
  read: endpoint({
    method: 'GET',
    path: '/v1/topics/:topic/events',
    params: topic,
    query: ReadQuerySchema,
    response: EventPageSchema,
  }),
};
export type HubApi = typeof hubApi;
