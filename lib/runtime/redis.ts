import { Redis } from 'ioredis';
import { settings } from '../config/env';
import { logError } from '../log/logger';
import { shared } from './shared';

/** The process-wide Redis connection (REDIS_URL); only called when REDIS_URL is set. */
export function redisClient(): Redis {
  return shared('redis', () => {
    const url = settings().redisUrl;
    if (!url) throw new Error('REDIS_URL is not set');
    const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    client.on('error', (e: unknown) => logError('redis error', e));
    return client;
  });
}
