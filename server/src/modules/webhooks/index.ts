/** Front door of the webhooks module (Google and Microsoft change notifications): what the app may use. */
export { webhooksRouter } from './webhooks.routes.ts';
