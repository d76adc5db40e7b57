/**
 * Staff accounts of the back office: roles and what each may do, sign-in, invitations, password
 * resets (docs/decisions/staff-accounts.md). The server enforces the permission table on every admin
 * route; the admin screens read the same table to show only what the role can use.
 */
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './newsletter';
import { textField } from './fields';

export const STAFF_ROLES = ['owner', 'manager', 'fulfilment', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The words staff see for each role. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  fulfilment: 'Fulfilment',
  support: 'Support',
};

export const STAFF_ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  owner: 'Everything, including staff accounts and their roles',
  manager: 'Catalogue, promo codes, orders, refunds, subscriptions, exports and NetSuite sync',
  fulfilment: 'Orders: view, status, carrier and tracking, the address of an unshipped order, resend emails',
  support: "Orders and subscriptions: view; pause, skip or cancel a plan for a customer; an unshipped order's address; resend emails",
};

const ALL: readonly StaffRole[] = STAFF_ROLES;
const MANAGERS: readonly StaffRole[] = ['owner', 'manager'];

/**
 * What each permission allows, who has it (`roles`) and how staff read it (`words`: "Your role (Support)
 * cannot {words}."). One table for the server's guard and the screens.
 */
export const PERMISSIONS = {
  /** Invite staff, change roles, disable accounts. */
  'staff.manage': { roles: ['owner'], words: 'manage staff accounts' },
  /** Read the audit trail (every entity's own history is shown with the entity). */
  'audit.view': { roles: MANAGERS, words: 'read the audit trail' },
  'promos.manage': { roles: MANAGERS, words: 'manage promo codes' },
  'catalog.manage': { roles: MANAGERS, words: 'manage products' },
  'reviews.moderate': { roles: MANAGERS, words: 'moderate reviews' },
  'orders.view': { roles: ALL, words: 'view orders' },
  /** Status, carrier and tracking. */
  'orders.fulfil': { roles: ['owner', 'manager', 'fulfilment'], words: 'change the status, carrier or tracking of an order' },
  'orders.refund': { roles: MANAGERS, words: 'refund orders' },
  /** Support too, up to SUPPORT_CREDIT_LIMIT per grant (api config); owners and managers any amount. */
  'credit.grant': { roles: ['owner', 'manager', 'support'], words: 'give store credit' },
  /** Damage claims (issue 23): make, approve or decline a claim (replacement, refund or credit). */
  'claims.resolve': { roles: ['owner', 'manager', 'support'], words: 'resolve damage claims' },
  /** The owner's auto-approval rule of shoppers' claims. */
  'claims.settings': { roles: ['owner'], words: 'change the claim auto-approval rule' },
  'orders.resendEmail': { roles: ALL, words: 'resend order emails' },
  /** Issue 23: correct the shipping address of an order that has not shipped (the customer's call, the warehouse's catch). */
  'orders.editAddress': { roles: ALL, words: 'change the shipping address of an order' },
  'subscriptions.view': { roles: ['owner', 'manager', 'support'], words: 'view subscriptions' },
  /** Pause, resume, skip, move the date, cancel, on a customer's behalf. */
  'subscriptions.act': { roles: ['owner', 'manager', 'support'], words: 'change subscriptions' },
  /**
   * Swap one product for another on every plan that has it (issue 21): it changes many customers' plans
   * and emails each of them at once, so it is the managers', not support's (who change one plan at a time).
   */
  'subscriptions.bulkSwap': { roles: MANAGERS, words: 'swap a product on many subscriptions at once' },
  /** Order and subscription CSV exports. */
  'exports.run': { roles: MANAGERS, words: 'export orders and subscriptions' },
  /** NetSuite sync status, the failed list, replays. */
  'sync.manage': { roles: MANAGERS, words: 'manage the NetSuite sync' },
  /** The queue dashboard, read-only: job payloads and errors shown with personal and secret fields redacted. */
  'queues.view': { roles: MANAGERS, words: 'view the queues' },
  /** Change the queues on the dashboard: retry, remove, promote, clean, pause, resume, empty. */
  'queues.manage': { roles: ['owner'], words: 'change the queues (retry, remove, promote, pause)' },
  'dashboard.view': { roles: ALL, words: 'view the dashboard' },
  /** Issue 22: the cancellations report (reasons, save offers, plans kept). */
  'reports.view': { roles: MANAGERS, words: 'view the reports' },
  /** Issue 23: the customers list and a customer's page (orders, plans, emails, notes, staff changes). */
  'customers.view': { roles: ['owner', 'manager', 'support'], words: 'view customers' },
  /** Notes on customers and orders, a customer's tags. */
  'customers.edit': { roles: ['owner', 'manager', 'support'], words: 'write notes and tags on customers' },
  /** Privacy requests: export everything held about a customer, anonymise them. */
  'customers.privacy': { roles: MANAGERS, words: 'export or anonymise a customer’s personal data' },
} as const satisfies Record<string, { roles: readonly StaffRole[]; words: string }>;
export type Permission = keyof typeof PERMISSIONS;

export const can = (role: StaffRole, permission: Permission): boolean => (PERMISSIONS[permission].roles as readonly StaffRole[]).includes(role);

/**
 * Whether staff of role `inviter` may invite someone as `invited`. Today only owners invite, and every
 * role (`staff.manage`); the invited role is an argument so that a narrower rule (say, managers inviting
 * support) changes this one place. Checked when an invitation is sent and again when it is opened or
 * accepted, against the inviter as they are then (an invitation dies with its inviter's right to send it).
 */
export const mayInvite = (inviter: StaffRole, _invited: StaffRole): boolean => can(inviter, 'staff.manage');

/** How long a staff session lasts from sign-in (absolute; signing in again starts a new one). */
export const STAFF_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const STAFF_INVITATION_TTL_MS = 72 * 60 * 60 * 1000;
export const STAFF_RESET_TTL_MS = 60 * 60 * 1000;
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_MAX_LENGTH = 200;
export const STAFF_NAME_MAX_LENGTH = 100;

export const STAFF_MESSAGES = {
  emailInvalid: 'Please enter a valid email address.',
  passwordRequired: 'Please enter your password.',
  passwordTooShort: `Password must be at least ${STAFF_PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: `Password must be at most ${STAFF_PASSWORD_MAX_LENGTH} characters.`,
  nameRequired: 'Please enter your name.',
  nameTooLong: `Name must be at most ${STAFF_NAME_MAX_LENGTH} characters.`,
  roleInvalid: 'Role must be owner, manager, fulfilment or support.',
  /** The spec's admin toast for a wrong password, kept for a wrong email or password alike (no account discovery). */
  signInFailed: 'Invalid password',
  tooManySignIns: 'Too many sign-in attempts. Try again in 15 minutes.',
  /** Invitation checks and password-reset requests per address (each may send an email or try a token). */
  tooManyTokenRequests: 'Too many invitation or password reset requests from this address. Try again in 15 minutes.',
  /** Reset emails asked for one account (per address, and from everywhere unless the browser signed in to it before). */
  tooManyResetEmails: 'Too many password reset emails were asked for this account. Try again in an hour.',
  accountDisabled: 'This staff account is disabled. Ask an owner to enable it.',
  signInRequired: 'Please sign in to the back office.',
  /** Completed with the role's label by the server: "… (Support)". */
  forbidden: 'Your role does not allow this. Ask an owner if you need it',
  staffNotFound: 'Staff account not found',
  staffExists: 'A staff account with this email already exists.',
  invitationPending: 'An invitation for this email is still open. It can be sent again once it expires.',
  invitationInvalid: 'This invitation link is not valid. Ask an owner for a new one.',
  invitationExpired: 'This invitation has expired. Ask an owner for a new one.',
  invitationUsed: 'This invitation has already been used. Sign in instead.',
  /** The inviter was disabled, or their role no longer lets them invite this role. */
  invitationInviterInactive:
    'The person who sent this invitation can no longer invite staff, so it no longer works. Ask an owner for a new invitation.',
  /** Revoking an invitation that was accepted, revoked or expired meanwhile. */
  invitationNotOpen: 'This invitation is no longer open: it was accepted, revoked or has expired.',
  resetInvalid: 'This reset link is not valid, has expired or was already used. Request a new one.',
  resetSent: 'If a staff account uses that email, a reset link is on its way. It works for 1 hour.',
  passwordChanged: 'Your password was changed. Please sign in.',
  lastOwner: 'The shop needs at least one active owner. Make someone else an owner first.',
  changeNothing: 'Choose a new role or enable or disable the account.',
  // Toasts
  signedIn: 'Signed in',
  signedOut: 'Signed out',
  invitationSent: 'Invitation sent',
  invitationRevoked: 'Invitation revoked',
  staffUpdated: 'Staff account updated',
} as const;

const email = textField({ max: EMAIL_MAX_LENGTH, required: STAFF_MESSAGES.emailInvalid, tooLong: STAFF_MESSAGES.emailInvalid })
  .toLowerCase()
  .regex(EMAIL_PATTERN, STAFF_MESSAGES.emailInvalid);
/** A password as typed at sign-in: not trimmed (spaces count), any length up to the cap. */
const enteredPassword = z.string({ error: STAFF_MESSAGES.passwordRequired }).min(1, STAFF_MESSAGES.passwordRequired).max(STAFF_PASSWORD_MAX_LENGTH, STAFF_MESSAGES.signInFailed);
/** A new password: long enough to resist guessing. */
const newPassword = z
  .string({ error: STAFF_MESSAGES.passwordTooShort })
  .min(STAFF_PASSWORD_MIN_LENGTH, STAFF_MESSAGES.passwordTooShort)
  .max(STAFF_PASSWORD_MAX_LENGTH, STAFF_MESSAGES.passwordTooLong);
const role = z.enum(STAFF_ROLES, { error: STAFF_MESSAGES.roleInvalid });
const name = textField({ max: STAFF_NAME_MAX_LENGTH, required: STAFF_MESSAGES.nameRequired, tooLong: STAFF_MESSAGES.nameTooLong }).min(1, STAFF_MESSAGES.nameRequired);
/** A single-use token from an emailed link (base64url). */
const token = z.string({ error: STAFF_MESSAGES.invitationInvalid }).regex(/^[A-Za-z0-9_-]{20,100}$/, STAFF_MESSAGES.invitationInvalid);

/** POST /api/admin/session */
export const staffSignInSchema = z.object({ email, password: enteredPassword });
export type StaffSignIn = z.infer<typeof staffSignInSchema>;

/** GET /api/admin/me, and the answer of a sign-in. */
export const staffMeSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(STAFF_ROLES) });
export type StaffMe = z.infer<typeof staffMeSchema>;

/** POST /api/admin/staff/invitations */
export const inviteStaffSchema = z.object({ email, role });
export type InviteStaffInput = z.infer<typeof inviteStaffSchema>;

export const staffInvitationSchema = z.object({ id: z.string(), email: z.string(), role: z.enum(STAFF_ROLES), invitedBy: z.string().nullable(), expiresAt: z.string(), createdAt: z.string() });
export type StaffInvitation = z.infer<typeof staffInvitationSchema>;

/** POST /api/admin/invitations/check: what the invitation page shows before the form. */
export const invitationTokenSchema = z.object({ token });
export const invitationDetailsSchema = z.object({ email: z.string(), role: z.enum(STAFF_ROLES) });
export type InvitationDetails = z.infer<typeof invitationDetailsSchema>;

/** POST /api/admin/invitations/accept: creates the account and signs it in. */
export const acceptInvitationSchema = z.object({ token, name, password: newPassword });
export type AcceptInvitationInput = z.infer<typeof acceptInvitationSchema>;

/** POST /api/admin/password-reset */
export const requestStaffResetSchema = z.object({ email });
/** POST /api/admin/password-reset/confirm */
export const confirmStaffResetSchema = z.object({ token: z.string({ error: STAFF_MESSAGES.resetInvalid }).regex(/^[A-Za-z0-9_-]{20,100}$/, STAFF_MESSAGES.resetInvalid), password: newPassword });

export const STAFF_STATUSES = ['active', 'disabled'] as const;
export const STAFF_STATUS_LABELS: Record<(typeof STAFF_STATUSES)[number], string> = { active: 'Active', disabled: 'Disabled' };

/** GET /api/admin/staff: one account. */
export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  status: z.enum(STAFF_STATUSES),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListSchema = z.object({ staff: z.array(staffMemberSchema), invitations: z.array(staffInvitationSchema) });
export type StaffList = z.infer<typeof staffListSchema>;

/** PATCH /api/admin/staff/{id}: a new role, or disabled/enabled (disabling ends its sessions at once). */
export const updateStaffSchema = z.object({ role: role.optional(), disabled: z.boolean({ error: STAFF_MESSAGES.changeNothing }).optional() });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;
