/** Notices and warnings for the trader. */
import { z } from 'zod';
import type { Call } from './call.ts';
import { count, detail, id, idInput, pageQuery, pageShape, pageSizeQuery, time } from './fields.ts';

/**
 * A notice or a warning for the user. `code` names what happened (fuel_low, fuel_empty,
 * bot_paused, api_invalid, order_failed); `detail` holds its figures; the app words it in zh or en.
 */
export const noticeSchema = z.strictObject({ id, kind: z.enum(['warning', 'notice']), code: z.string(), detail, read: z.boolean(), createdAt: time });
export type Notice = z.infer<typeof noticeSchema>;

// The spec lists no calls for notices: these are ours.
export const noticeCalls = {
  noticeList: {
    method: 'GET',
    path: '/notice/list',
    query: z.strictObject({ kind: z.enum(['warning', 'notice']).optional(), page: pageQuery, page_size: pageSizeQuery }),
    // `unread`: of the kind asked for, else of all.
    answer: z.strictObject({ ...pageShape(noticeSchema), unread: count }),
  },
  noticeDetail: { method: 'GET', path: '/notice/detail', query: z.strictObject({ id: idInput }), answer: noticeSchema },
  noticeRead: {
    method: 'POST',
    path: '/notice/read',
    changes: ['noticeList', 'noticeDetail', 'userIndex'],
    body: z.strictObject({ id: idInput.optional(), all: z.boolean().optional() }),
    answer: z.strictObject({ unread: count }),
  },
} as const satisfies Record<string, Call>;
