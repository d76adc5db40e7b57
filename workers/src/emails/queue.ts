/** The emails queue: every email the shop sends, one file each. A new email is one more line here. */
import { defineQueue } from '../jobs/define';
import { newsletterWelcomeJob } from './newsletter-welcome';
import { orderConfirmationJob } from './order-confirmation';
import { orderLinkJob } from './order-link';
import { orderShippedJob } from './order-shipped';
import { renewalReminderJob } from './renewal-reminder';
import { shopperPasswordResetJob } from './shopper-password-reset';
import { signInFailuresJob } from './sign-in-failures';
import { staffInvitationJob } from './staff-invitation';
import { staffPasswordResetJob } from './staff-password-reset';
import { subscriptionCardExpiringJob } from './subscription-card-expiring';
import { subscriptionChangedJob } from './subscription-changed';
import { subscriptionItemUnavailableJob } from './subscription-item-unavailable';
import { subscriptionPausedJob } from './subscription-paused';
import { subscriptionStaffChangeJob } from './subscription-staff-change';
import { subscriptionWelcomeJob } from './subscription-welcome';

export const emailsQueue = defineQueue({
  name: 'emails',
  jobs: [newsletterWelcomeJob, orderConfirmationJob, orderShippedJob, subscriptionWelcomeJob, subscriptionPausedJob, renewalReminderJob, staffInvitationJob, staffPasswordResetJob, subscriptionStaffChangeJob, subscriptionItemUnavailableJob, subscriptionCardExpiringJob, orderLinkJob, shopperPasswordResetJob, subscriptionChangedJob, signInFailuresJob],
  worker: (config) => ({ concurrency: config.EMAIL_CONCURRENCY }),
});
