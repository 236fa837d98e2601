// GET /locations, GET /locations/{id}, PATCH /locations/{id}.
import type { Location } from '../../api/records';
import type { ListOrdersQuery, PatchLocationRequest } from '../../api/requests';
import { iso, type OpContext, type OpResult } from '../context';
import { ApiError } from '../http';
import { envelopeOfDocs, pageRequest, pageSlice } from '../paginate';
import type { Tx } from '../storage';

export async function findLocation(tx: Tx, id: string): Promise<Location | undefined> {
  const row = await tx.selectFrom('locations').select('doc').where('id', '=', id).executeTakeFirst();
  return row ? (JSON.parse(row.doc) as Location) : undefined;
}

async function locationOr404(tx: Tx, id: string): Promise<Location> {
  const location = await findLocation(tx, id);
  if (!location) throw new ApiError('not_found', `no location ${id}`);
  return location;
}

export async function listLocations(ctx: OpContext): Promise<OpResult> {
  const page = pageRequest(ctx.query as Pick<ListOrdersQuery, 'page' | 'per_page'>, ctx.quirks);
  const { count } = await ctx.tx.selectFrom('locations').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const slice = pageSlice(page, Number(count));
  const rows = await ctx.tx.selectFrom('locations').select('doc').orderBy('created_at').orderBy('id').limit(slice.limit).offset(slice.offset).execute();
  return { status: 200, body: envelopeOfDocs(rows.map((r) => r.doc), Number(count), page, ctx.requestUrl) };
}

export async function getLocation(ctx: OpContext): Promise<OpResult> {
  return { status: 200, body: await locationOr404(ctx.tx, ctx.id) };
}

export async function updateLocation(ctx: OpContext): Promise<OpResult> {
  const location = await locationOr404(ctx.tx, ctx.id);
  const patch = ctx.body as PatchLocationRequest;
  const updated: Location = {
    ...location,
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.phone !== undefined && { phone: patch.phone }),
    ...(patch.timezone !== undefined && { timezone: patch.timezone }),
    ...(patch.status !== undefined && { status: patch.status }),
    address: { ...location.address, ...patch.address },
    updated_at: iso(ctx.clock.now()),
  };
  await ctx.tx.updateTable('locations').set({ doc: JSON.stringify(updated) }).where('id', '=', updated.id).execute();
  return { status: 200, body: updated };
}
