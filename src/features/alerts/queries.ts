/** The queries of the notifications screen: this device's push endpoint, and the settings as they stand for it. */
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../shared/query.ts';
import { currentEndpoint } from './push.ts';

/** This device's push subscription endpoint (null: none), in the query cache so that the settings query can name it and a change can set it. */
export const endpointQuery = queryOptions({ queryKey: ['pushEndpoint'] as const, queryFn: () => currentEndpoint().catch(() => null), staleTime: Number.POSITIVE_INFINITY });

/** The settings for this device: naming its endpoint makes the server answer whether it is subscribed. */
export const settingsQuery = (endpoint: string | null) => call('alertSettings', endpoint ? { endpoint } : {}, { show: false });
