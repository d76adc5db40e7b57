/**
 * The built-in sign-in page (GET /api/login): server-rendered, self-contained, styled inline. Its
 * script is served separately (GET /api/login.js) because the Content-Security-Policy forbids inline
 * scripts. The forms post JSON; the server answers where to go next. The emailed code comes first
 * (issue 22); the password form stays below it.
 */
import { PASSWORD_MIN_LENGTH } from '@nh/shared/contracts/auth';
import { escapeHtml } from '@nh/shared/html';


/** The look shared by the sign-in and sign-out pages. */
const PAGE_STYLE = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: linear-gradient(180deg, #eef7f1, #f8f6f0); color: #1f2d24; }
  main { max-width: 880px; margin: 0 auto; padding: 40px 20px 64px; }
  header { text-align: center; margin-bottom: 28px; }
  header a { color: #1f5d3a; font-weight: 700; font-size: 1.5rem; text-decoration: none; }
  header p { color: #4d5e53; margin: 8px 0 0; }
  .forms { display: grid; gap: 24px; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); }
  section { background: #fff; border-radius: 14px; padding: 28px; box-shadow: 0 6px 24px rgba(31, 93, 58, 0.08); }
  h1, h2 { font-size: 1.25rem; margin: 0 0 18px; color: #1f5d3a; }
  label { display: block; font-size: 0.9rem; font-weight: 600; margin: 14px 0 6px; }
  input { width: 100%; padding: 11px 12px; border: 1px solid #c9d6cd; border-radius: 8px; font: inherit; }
  input:focus { outline: 3px solid #9fd3b2; border-color: #2f7d4f; }
  .row { display: grid; gap: 12px; grid-template-columns: 1fr 1fr; }
  .hint { color: #5b6b60; font-size: 0.8rem; margin: 6px 0 0; }
  button { margin-top: 20px; width: 100%; padding: 12px; border: 0; border-radius: 999px; background: #1f5d3a; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
  button:hover { background: #2f7d4f; }
  button:disabled { opacity: 0.6; cursor: wait; }
  .error { color: #a11d2b; font-size: 0.9rem; margin: 12px 0 0; min-height: 1.2em; }
  .back { display: block; text-align: center; margin-top: 28px; color: #1f5d3a; }
  .or { font-size: 1rem; margin: 28px 0 0; color: #4d5e53; }
  .forgot { display: inline-block; margin-top: 16px; padding: 4px 0; color: #1f5d3a; font-weight: 600; }
`;

/** The document head both pages share; `title` is already escaped. */
const pageHead = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>`;

export function renderLoginPage({ shopName, returnTo }: { shopName: string; returnTo: string }): string {
  const shop = escapeHtml(shopName);
  const back = escapeHtml(returnTo);
  return `${pageHead(`Log In | ${shop}`)}
<body>
<main>
  <header><a href="/">${shop}</a><p>Sign in to manage your Subscribe &amp; Save deliveries.</p></header>
  <noscript><p class="error">Please turn on JavaScript to sign in.</p></noscript>
  <div class="forms">
    <section aria-labelledby="login-title">
      <h1 id="login-title">Log In</h1>
      <form id="code-request-form" data-endpoint="/api/login/email-code" data-then="code" novalidate>
        <label for="code-email">Email</label>
        <input id="code-email" name="email" type="email" autocomplete="email" required>
        <p class="hint">We email you a 6-digit code: no password needed.</p>
        <p class="error" role="alert" data-error></p>
        <button type="submit">Email Me a Code</button>
      </form>
      <form id="code-form" data-endpoint="/api/login/email-code/verify" hidden novalidate>
        <p class="hint" role="status" data-sent></p>
        <input type="hidden" name="returnTo" value="${back}">
        <input type="hidden" name="email">
        <label for="code-code">Code from the email</label>
        <input id="code-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required>
        <p class="error" role="alert" data-error></p>
        <button type="submit">Sign In with Code</button>
      </form>
      <h2 class="or">Or log in with your password</h2>
      <form id="login-form" data-endpoint="/api/login" novalidate>
        <input type="hidden" name="returnTo" value="${back}">
        <label for="login-email">Email</label>
        <input id="login-email" name="email" type="email" autocomplete="email" required>
        <label for="login-password">Password</label>
        <input id="login-password" name="password" type="password" autocomplete="current-password" required>
        <p class="error" role="alert" data-error></p>
        <button type="submit">Log In</button>
      </form>
      <a class="forgot" href="/account/forgot-password">Forgot your password?</a>
    </section>
    <section aria-labelledby="register-title">
      <h2 id="register-title">Create an Account</h2>
      <form id="register-form" data-endpoint="/api/register" novalidate>
        <input type="hidden" name="returnTo" value="${back}">
        <div class="row">
          <div><label for="register-first">First name</label><input id="register-first" name="firstName" autocomplete="given-name" required></div>
          <div><label for="register-last">Last name</label><input id="register-last" name="lastName" autocomplete="family-name" required></div>
        </div>
        <label for="register-email">Email</label>
        <input id="register-email" name="email" type="email" autocomplete="email" required>
        <label for="register-password">Password</label>
        <input id="register-password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required aria-describedby="register-password-hint">
        <p class="hint" id="register-password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</p>
        <p class="error" role="alert" data-error></p>
        <button type="submit">Create Account</button>
      </form>
    </section>
  </div>
  <a class="back" href="/">Back to the shop</a>
</main>
<script src="/api/login.js" defer></script>
</body>
</html>`;
}

/** Posts each form as JSON; on success goes where the server says, otherwise shows its message. */
export const LOGIN_SCRIPT = `(() => {
  for (const form of document.querySelectorAll('form[data-endpoint]')) {
    const error = form.querySelector('[data-error]');
    const button = form.querySelector('button[type="submit"]');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      button.disabled = true;
      try {
        const body = Object.fromEntries(new FormData(form).entries());
        const res = await fetch(form.dataset.endpoint, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        const data = await res.json().catch(() => ({}));
        if (res.ok && form.dataset.then === 'code') {
          // The code was asked for: the second step takes the code, for the same email.
          const next = document.getElementById('code-form');
          next.elements.email.value = body.email;
          next.querySelector('[data-sent]').textContent = data.message;
          next.hidden = false;
          next.elements.code.focus();
          button.disabled = false;
          button.textContent = 'Email Me a New Code';
          return;
        }
        if (res.ok) {
          window.location.assign(data.redirectTo || '/');
          return;
        }
        error.textContent = data.message || 'Something went wrong. Please try again.';
      } catch {
        error.textContent = 'Could not reach the shop. Please check your connection and try again.';
      }
      button.disabled = false;
    });
  }
})();
`;

/**
 * GET /api/logout (an old link or bookmark): signing out changes state, so it is a POST from this
 * page's button, never a GET another site could trigger.
 */
export function renderLogoutPage({ shopName }: { shopName: string }): string {
  const shop = escapeHtml(shopName);
  return `${pageHead(`Log Out | ${shop}`)}
<body>
<main>
  <header><a href="/">${shop}</a></header>
  <section aria-labelledby="logout-title" style="max-width: 420px; margin: 0 auto;">
    <h1 id="logout-title">Log Out</h1>
    <p>Do you want to log out of ${shop} on this device?</p>
    <form method="post" action="/api/logout"><button type="submit">Log Out</button></form>
  </section>
  <a class="back" href="/">Back to the shop</a>
</main>
</body>
</html>`;
}
