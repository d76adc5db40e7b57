import { Router } from 'express';
import { approveClaimSchema, claimListRequestSchema, claimReportQuerySchema, claimRequestSchema, claimSettingsSchema, declineClaimSchema } from '@nh/shared/contracts/claims';
import { listClaims } from '@nh/server/queries/claims';
import type { AppContext } from '../../../lib/context';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../../lib/idempotency';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { sendClaimPhoto } from '../../claims/photos';
import { CLAIM_IDEMPOTENCY_MESSAGES } from '../../claims/open-claim';
import { approveClaim, claimPhotoKeyOf, claimView, createStaffClaim, declineClaim, toAdminClaim, type ClaimDeps } from './service';
import { claimRates } from './report';
import { changeClaimSettings, claimSettingsView } from './settings';

/**
 * Damage claims (issue 23; docs/decisions/claims.md): staff's claim on an order, the queue with its
 * approve and decline, the owner's auto-approval rule, and the claim figures of the dashboard.
 */
export function claimArea(ctx: AppContext, { guard, gateway, invalidateCatalog, claimPhotos }: AdminDeps): AdminArea[] {
  const { db } = ctx;
  const deps: ClaimDeps = { db, gateway, log: ctx.log, invalidateCatalog, supportCreditLimit: ctx.config.SUPPORT_CREDIT_LIMIT, photos: claimPhotos };

  const onOrders = Router();
  onOrders.post('/:id/claims', guard.require('claims.resolve'), async (req, res) => {
    const key = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], CLAIM_IDEMPOTENCY_MESSAGES);
    const { storeCode, ...input } = parseInput(claimRequestSchema, req.body);
    const answer = await createStaffClaim(deps, storeCode, String(req.params.id), input, key, actorOf(req, res));
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json(answer.claim);
  });

  const queue = Router();
  queue.get('/', guard.require('claims.resolve'), async (req, res) => {
    const { status } = parseInput(claimListRequestSchema, req.query);
    res.json((await listClaims(db, status)).map(toAdminClaim));
  });
  queue.get('/settings', guard.require('claims.resolve'), async (_req, res) => {
    res.json(await claimSettingsView(db));
  });
  queue.put('/settings', guard.require('claims.settings'), async (req, res) => {
    res.json(await changeClaimSettings(db, parseInput(claimSettingsSchema, req.body), actorOf(req, res)));
  });
  queue.get('/:id', guard.require('claims.resolve'), async (req, res) => {
    res.json(await claimView(db, String(req.params.id)));
  });
  // The photo sent with the claim: staff only, streamed from the private store (no public URL exists).
  queue.get('/:id/photo', guard.require('claims.resolve'), async (req, res) => {
    const id = String(req.params.id);
    await sendClaimPhoto(claimPhotos, await claimPhotoKeyOf(db, id), res, `claim-${id}.jpg`);
  });
  queue.post('/:id/approve', guard.require('claims.resolve'), async (req, res) => {
    const { resolution, note } = parseInput(approveClaimSchema, req.body);
    res.json(await approveClaim(deps, String(req.params.id), resolution, note, actorOf(req, res)));
  });
  queue.post('/:id/decline', guard.require('claims.resolve'), async (req, res) => {
    const { note } = parseInput(declineClaimSchema, req.body);
    res.json(await declineClaim(db, String(req.params.id), note, actorOf(req, res)));
  });

  const report = Router();
  report.get('/', guard.require('reports.view'), async (req, res) => {
    const { from, to } = parseInput(claimReportQuerySchema, req.query);
    res.json(await claimRates(db, from, to));
  });

  return [
    { path: '/admin/orders', router: onOrders },
    { path: '/admin/claims', router: queue },
    { path: '/admin/reports/claims', router: report },
  ];
}
