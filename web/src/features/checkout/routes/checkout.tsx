import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { checkoutFormSchema, emptyCheckoutForm, type CheckoutForm } from '@nh/shared/contracts/checkout';
import type { PromoValidation } from '@nh/shared/contracts/promo';
import { subscriptionTermsParagraphs } from '@nh/shared/contracts/subscription-terms';
import { cadenceChoiceWords, cadenceWords } from '@nh/shared/contracts/subscriptions';
import { toCents } from '@nh/shared/money';
import { priceCart, pricePlan, shippingOptionsFor, toPayloadStrings } from '@nh/shared/pricing';
import { freeShippingNote, HOME_ZONE, shippingZoneOf, type ShippingMethod } from '@nh/shared/shipping-rules';
import { Loader2, ShoppingBag } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { acceptReady } from '@/components/card-entry/accept';
import { CardDetailsFields } from '@/components/card-entry/card-details-fields';
import { PaymentAlerts } from '@/components/card-entry/payment-alerts';
import { useCardEntry } from '@/components/card-entry/use-card-entry';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CadenceChoice } from '@/components/plan-cadence/cadence-choice';
import { usePlanCadences } from '@/components/plan-cadence/cadences';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { LabelledField as Field } from '@/components/ui/labelled-field';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/auth';
import { useCart } from '@/stores/cart-context';
import { CHECKOUT_SECTION_CLASS, CheckoutHeading, CheckoutShell } from '../components/checkout-shell';
import { CheckoutTrustBadges } from '../components/checkout-trust-badges';
import { GuestEmailCode } from '../components/guest-email-code';
import { OrderSummary } from '../components/order-summary';
import { PromoCodeField } from '../components/promo-code-field';
import { ShippingChoice } from '../components/shipping-choice';
import { SubscriptionTerms } from '../components/subscription-terms';
import { useCheckoutDraft } from '../checkout-draft';
import { usePlaceOrder } from '../use-place-order';
import { fetchCreditBalance } from '../api';
import { pricingOfQuote, quoteStrings, taxRowLabel, useCheckoutQuote } from '../use-checkout-quote';

/** The checkout form without the card fields (store credit pays all). */
const withoutCardSchema = checkoutFormSchema.extend({ cardNumber: z.string(), expirationDate: z.string(), cardCode: z.string() });

/**
 * The server renders the checkout's shell (frame and heading) and the browser hydrates it; the form
 * follows once the saved cart is read. A page the browser renders alone has the cart from the start.
 */
export default function CheckoutPage() {
  const { restored } = useCart();
  return restored ? <CheckoutScreen /> : <CheckoutShell />;
}

function CheckoutScreen() {
  const { items } = useCart();
  const { isAuthenticated, user } = useAuth();
  const card = useCardEntry();
  const order = usePlaceOrder({ tokenize: card.tokenize });
  const [promo, setPromo] = useState<PromoValidation | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [shippingMethod, setShippingMethod] = useState<ShippingMethod>('standard');
  const processing = order.isPending;

  // Store credit that pays the whole order (issue 23) needs no card: the card fields are then not checked.
  const creditCoversRef = useRef(false);
  const form = useForm<CheckoutForm>({
    resolver: (values, context, options) => (creditCoversRef.current ? zodResolver(withoutCardSchema) : zodResolver(checkoutFormSchema))(values, context, options),
    defaultValues: emptyCheckoutForm,
    mode: 'onSubmit',
  });
  const { register, handleSubmit, control, watch, formState } = form;
  useCheckoutDraft(form, user);
  const errors = formState.errors;
  const subscribe = watch('subscribeAndSave');
  const intervalCount = watch('intervalCount');
  const cadences = usePlanCadences();
  const cadence = cadenceWords('monthly', intervalCount).toLowerCase();

  const lines = items.map((item) => ({ price: item.price, quantity: item.quantity }));
  const plan = subscribe ? pricePlan(lines, promo) : null;
  const state = watch('state');
  const zip = watch('zip');
  // The server's figures for the address typed so far (issue 25): shipping by zone, tax by destination.
  // Express is kept as the choice only where the typed state's zone offers it.
  const zone = shippingZoneOf(state);
  const method: ShippingMethod = subscribe || (zone && !zone.express) ? 'standard' : shippingMethod;
  const quoted = useCheckoutQuote({ items, promoCode: promo?.code ?? null, subscribe, state, zip, shippingMethod: method });
  const quote = quoted.quote;
  // The terms as the server records them with the plan (consent on record): one source,
  // shared/contracts/subscription-terms.ts; the renewal's figure is the server's, taxed for the address.
  const renewalAmount = quote?.renewalTotal ? toCents(quote.renewalTotal) : pricePlan(lines, null).renewal.total;
  const terms = subscriptionTermsParagraphs({ renewalAmount, interval: 'monthly', intervalCount });
  // The shared rules' figures for what is typed: exact under the flat rule, so shown at once while the
  // quote is on its way; under a destination's tax the last quote's figures stay until the new one.
  const typedState = state.trim().length === 2 ? state.trim() : null;
  const local = subscribe ? pricePlan(lines, promo, typedState).firstDelivery : priceCart(lines, { promo, state: typedState, shippingMethod: method });
  const showLocal = !quote || (!quoted.current && quote.taxSource === 'flat');
  const pricing = showLocal ? local : pricingOfQuote(quote, local);
  const renewalTotal = !showLocal && quote.renewalTotal ? toCents(quote.renewalTotal) : (plan?.renewal.total ?? null);
  const refusal = quoted.current ? (quote?.refusal ?? null) : null;
  // Until the first quote arrives, the shipping choice and the free-shipping line come from the shared
  // rule for the typed zone (the figures the quote will carry), so the form does not move when it lands.
  const typedZone = typedState ? shippingZoneOf(typedState) : HOME_ZONE;
  const shippingOptions = quote ? quote.options : shippingOptionsFor(lines, { promo, subscribe, state: typedState });
  const freeShippingLine = quote ? quote.freeShippingNote : typedZone && !subscribe ? freeShippingNote(typedZone) : null;
  // Place order waits for the quote of what is typed (its figures are what is sent); a quote that
  // failed lets the server decide on the shared rules' figures (it refuses a total that is not its own).
  const quoteReady = quoted.current || quoted.failed;
  // Store credit pays a signed-in shopper's order first (not a new plan's first delivery); the server decides the amount.
  const credit = useQuery({ queryKey: ['/api/account/credit', 'balance'], queryFn: fetchCreditBalance, enabled: isAuthenticated });
  const storeCredit = !subscribe && isAuthenticated ? (credit.data ?? 0) : 0;
  const creditCovers = storeCredit > 0 && storeCredit >= pricing.total;
  creditCoversRef.current = creditCovers;

  if (items.length === 0) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 pb-24 pt-36 text-center">
        <ShoppingBag className="size-12 text-brand-500" aria-hidden="true" />
        <h1 className="text-2xl font-semibold text-brand-900">Your cart is empty</h1>
        <Button asChild>
          <Link to="/shop">Continue Shopping</Link>
        </Button>
      </section>
    );
  }

  const { configured, script } = card;

  // A guest's Subscribe & Save asks for the emailed code here (issue 22), never leaving the page.
  const requireLogin = () => setVerifying(true);

  const submit = (values: CheckoutForm) => {
    if (!configured || !quoteReady) return;
    // Somewhere checkout does not ship to (or express where the zone has none): its message is under the field.
    if (refusal) {
      form.setFocus(refusal.field === 'state' ? 'state' : 'zip');
      return;
    }
    const figures = quoted.current && quote ? quoteStrings(quote) : toPayloadStrings(local);
    if (values.subscribeAndSave && !isAuthenticated) {
      requireLogin();
      return;
    }
    if (creditCovers) {
      order.mutate({ values, items, promo, creditCovers: true, figures, shippingMethod: method });
      return;
    }
    if (!acceptReady()) {
      toast({ title: 'Payment Error', description: 'Secure payment system not ready. Please refresh the page.', variant: 'destructive' });
      return;
    }
    order.mutate({ values, items, promo, figures, shippingMethod: method });
  };
  const stateError = errors.state ?? (refusal?.field === 'state' ? { type: 'shipping', message: refusal.message } : undefined);

  const field = (name: keyof Omit<CheckoutForm, 'subscribeAndSave' | 'intervalCount'>) => ({ ...register(name), error: errors[name] });

  return (
    <section className={CHECKOUT_SECTION_CLASS}>
      <CheckoutHeading />
      <div className="grid gap-8 lg:grid-cols-[1fr_380px]">
        <form onSubmit={handleSubmit(submit)} noValidate className="space-y-6" aria-label="Checkout">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Contact &amp; Shipping</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              <Field label="First Name" autoComplete="given-name" {...field('firstName')} />
              <Field label="Last Name" autoComplete="family-name" {...field('lastName')} />
              <Field label="Email" type="email" autoComplete="email" className="sm:col-span-2" {...field('email')} />
              <Field label="Address" autoComplete="street-address" className="sm:col-span-2" {...field('address')} />
              <Field label="City" autoComplete="address-level2" {...field('city')} />
              <div className="grid grid-cols-2 gap-4">
                <Field label="State" autoComplete="address-level1" maxLength={2} placeholder="CA" {...field('state')} error={stateError} />
                <Field label="ZIP Code" autoComplete="postal-code" inputMode="numeric" {...field('zip')} />
              </div>
              {!subscribe && shippingOptions && (
                <ShippingChoice options={shippingOptions} value={method} onChange={setShippingMethod} disabled={processing} />
              )}
              {refusal?.field === 'shippingMethod' && (
                <p className="text-sm text-red-600 sm:col-span-2" role="alert">
                  {refusal.message}
                </p>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle as="h2">Payment</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              {/* Inside the Payment card, not atop the form: the status arrives after the first paint, and
                  an alert above the form pushed the whole page down (a layout shift). */}
              <div className="empty:hidden sm:col-span-2">
                <PaymentAlerts status={card.status} />
              </div>
              {creditCovers ? (
                <p className="text-sm text-stone-700 sm:col-span-2" data-testid="credit-covers">
                  Your store credit pays this whole order: no card needed.
                </p>
              ) : (
                <CardDetailsFields field={field} />
              )}
            </CardContent>
          </Card>

          <Card>
            <CardContent className="flex items-start gap-3 pt-6">
              <Controller
                control={control}
                name="subscribeAndSave"
                render={({ field: { value, onChange } }) => (
                  <Checkbox
                    id="subscribe-and-save"
                    checked={value}
                    onCheckedChange={(checked) => {
                      if (checked === true && !isAuthenticated) {
                        requireLogin();
                        return;
                      }
                      onChange(checked === true);
                    }}
                  />
                )}
              />
              <div className="space-y-1">
                <Label htmlFor="subscribe-and-save">{terms[0]}</Label>
                <p className="text-sm text-stone-600">{terms[1]}</p>
                {verifying && !isAuthenticated && (
                  <GuestEmailCode
                    email={watch('email')}
                    firstName={watch('firstName')}
                    lastName={watch('lastName')}
                    onVerified={() => {
                      setVerifying(false);
                      form.setValue('subscribeAndSave', true);
                    }}
                    onCancel={() => setVerifying(false)}
                  />
                )}
                {subscribe && <SubscriptionTerms paragraphs={terms.slice(2)} />}
                {subscribe && (
                  <Controller
                    control={control}
                    name="intervalCount"
                    render={({ field: { value, onChange } }) => (
                      <CadenceChoice label={cadenceChoiceWords(cadences)} value={value} onChange={onChange} disabled={processing} />
                    )}
                  />
                )}
              </div>
            </CardContent>
          </Card>

          <Button type="submit" size="lg" className="w-full" disabled={!configured || processing || script === 'loading' || !quoteReady}>
            {processing ? (
              <>
                <Loader2 className="animate-spin" aria-hidden="true" /> Processing...
              </>
            ) : subscribe ? (
              'Start Subscription'
            ) : (
              'Place Order'
            )}
          </Button>
          <CheckoutTrustBadges />
        </form>

        <aside className="space-y-4">
          <OrderSummary
            items={items}
            pricing={pricing}
            promoCode={promo?.code ?? null}
            renewalTotal={subscribe ? renewalTotal : null}
            cadence={cadence}
            storeCredit={storeCredit}
            taxLabel={taxRowLabel(quote, zip)}
            freeShippingLine={freeShippingLine}
            calculating={!quoteReady}
          >
            <PromoCodeField applied={promo} onApply={setPromo} onRemove={() => setPromo(null)} />
          </OrderSummary>
        </aside>
      </div>
    </section>
  );
}
