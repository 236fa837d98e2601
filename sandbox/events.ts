// Events are written in the operation's transaction, with one delivery row per subscribed
// endpoint: if the write commits, its deliveries exist; if it rolls back, nothing was announced.
import { eventTypeSchema, type EventType } from '../api/enums';
import type { WebhookEvent } from '../api/events';
import type { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { iso, type EventData } from './context';
import { presentEvent, type Profile } from './profiles';
import type { Tx } from './storage';

/** Built once: every event checks each endpoint's subscriptions. */
const storedEventTypes = eventTypeSchema.array();

/** The event is stored as the profile in force sends it: a later switch does not change what was announced. */
export async function recordEvent(tx: Tx, clock: Clock, type: EventType, data: EventData, options: { profile: Profile; test?: { endpointId: string } }): Promise<{ event: WebhookEvent; deliveryIds: string[] }> {
  const now = clock.now();
  const event = { id: newId('evt_', now), type, created_at: iso(now), test: options.test !== undefined, data } as WebhookEvent;
  const body = JSON.stringify(presentEvent(event, options.profile));
  const inserted = await tx
    .insertInto('events')
    .values({ seq: null, id: event.id, type, resource_id: data.id, created_at: now, body })
    .returning('seq')
    .executeTakeFirstOrThrow();
  const endpoints = (await tx.selectFrom('webhook_endpoints').select(['id', 'event_types']).execute()).filter((e) =>
    options.test ? e.id === options.test.endpointId : storedEventTypes.parse(JSON.parse(e.event_types)).includes(type),
  );
  const deliveryIds: string[] = [];
  for (const endpoint of endpoints) {
    const id = newId('whd_', now);
    deliveryIds.push(id);
    await tx
      .insertInto('deliveries')
      .values({
        id,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_seq: inserted.seq as number,
        resource_id: data.id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
        delivered_at: null,
        first_attempt_done: 0,
        created_at: now,
      })
      .execute();
  }
  return { event, deliveryIds };
}
