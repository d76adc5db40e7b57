export { NewsletterForm } from './newsletter-form';
export { NewsletterPopup, type NewsletterPopupProps, type PopupTrigger } from './newsletter-popup';
