/**
 * Signs out with a full-page POST to /api/logout (the server ends the session and sends the shopper
 * home). A POST, not a link: a GET that signs out could be triggered by any other website.
 */
export function signOut(): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/api/logout';
  form.hidden = true;
  document.body.append(form);
  form.submit();
}
