import type { Request } from 'express';
import type { ApiConfig } from '../../config';

/** The shop's address for absolute URLs: SHOP_SITE_URL's origin, or the request's own when it is not set (development, previews). */
export const siteOrigin = (config: Pick<ApiConfig, 'SHOP_SITE_URL'>, req: Request): string =>
  config.SHOP_SITE_URL ? new URL(config.SHOP_SITE_URL).origin : `${req.protocol}://${req.get('host')}`;
