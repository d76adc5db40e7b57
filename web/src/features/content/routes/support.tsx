import { MONEY_BACK_GUARANTEE_DAYS, SHOP } from '@nh/shared/constants';
import { ArrowRight, Clock, type LucideIcon, Mail, MessageCircle, PackageSearch, Phone, RotateCcw, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Hero } from '@/components/hero';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { usePageMeta } from '@/lib/use-page-meta';
import { Section, SectionHeading } from '../components';
import { mailtoHref, supportContact } from '../contact';
import { faqGroups } from '../faq-content';
import { LEGAL_PAGE_SLUGS } from '../legal/legal-pages';

const LEGAL_LINK_LABELS: Record<(typeof LEGAL_PAGE_SLUGS)[number], string> = {
  shipping: 'Shipping Policy',
  returns: 'Returns & Refunds',
  privacy: 'Privacy Policy',
  terms: 'Terms of Service',
};

export default function SupportPage() {
  usePageMeta({
    title: 'Support',
    description: `Order help, returns, product safety and answers to common questions. Contact ${SHOP.name} by phone or email.`,
  });
  const contact = supportContact();
  const groups = faqGroups();

  return (
    <>
      <Hero
        image="/api/public/lifestyle-living.svg"
        gradient="sage-earth"
        eyebrow="Help Center"
        title="How Can We Help?"
        subtitle="Answers about orders, returns and our products, and a friendly team ready to help when you need a person."
      />

      <Section className="bg-cream">
        <ul className="grid gap-6 md:grid-cols-3">
          <HelpCard icon={PackageSearch} title="Order Status" text="Follow your package or check on an order you have placed.">
            <TrackOrderDialog />
          </HelpCard>
          <HelpCard icon={RotateCcw} title="Returns" text={`Not completely happy? Every order has a ${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee.`}>
            <Button asChild variant="outline">
              <Link to="/legal/returns">
                Returns Policy
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </HelpCard>
          <HelpCard icon={ShieldCheck} title="Product Safety" text="See every ingredient we use, what it does and how it is rated.">
            <Button asChild variant="outline">
              <Link to="/ingredients">
                View Ingredients
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </HelpCard>
        </ul>
      </Section>

      <Section className="bg-white">
        <SectionHeading id="faq" eyebrow="FAQ" title="Frequently Asked Questions" />
        <div className="mx-auto mt-12 grid max-w-4xl gap-8">
          {groups.map((group) => (
            <section key={group.id} aria-labelledby={`faq-${group.id}`} className="rounded-3xl border border-stone-200 bg-white px-6 pt-6 shadow-sm sm:px-8">
              <h3 id={`faq-${group.id}`} className="text-xl font-semibold text-brand-900">
                {group.title}
              </h3>
              {/* Each category is its own accordion: its questions open and close independently. */}
              <Accordion type="multiple" className="mt-2">
                {group.items.map((item, index) => (
                  <AccordionItem key={item.question} value={`${group.id}-${index}`}>
                    <AccordionTrigger className="text-base">{item.question}</AccordionTrigger>
                    <AccordionContent className="text-base text-stone-600">{item.answer}</AccordionContent>
                  </AccordionItem>
                ))}
              </Accordion>
            </section>
          ))}
        </div>
      </Section>

      <Section id="contact" className="bg-cream">
        <SectionHeading eyebrow="Contact Us" title="Still Need Help?" description="Our customer care team is happy to help with anything from orders to stain emergencies." />
        <ul className="mx-auto mt-12 grid max-w-5xl gap-6 md:grid-cols-3">
          <ContactCard icon={Phone} title="Phone" detail={contact.hours}>
            <a href={contact.phoneHref} className="text-lg font-semibold text-brand-700 underline-offset-4 hover:underline">
              {contact.phone}
            </a>
          </ContactCard>
          <ContactCard icon={Mail} title="Email" detail="We reply within one business day.">
            <a href={contact.emailHref} className="break-all text-lg font-semibold text-brand-700 underline-offset-4 hover:underline">
              {contact.email}
            </a>
          </ContactCard>
          <ContactCard icon={MessageCircle} title="Live Chat" detail="Real-time help from our team is launching soon." badge={<Badge variant="warning">Coming soon</Badge>}>
            <Button disabled variant="outline" aria-describedby="live-chat-status">
              Live Chat
            </Button>
            <span id="live-chat-status" className="sr-only">
              Live chat is coming soon.
            </span>
          </ContactCard>
        </ul>
        <p className="mt-10 flex items-center justify-center gap-2 text-center text-stone-700">
          <Clock className="size-4 shrink-0 text-brand-500" aria-hidden="true" />
          <span>
            <span className="font-semibold">Support hours:</span> {contact.hours}
          </span>
        </p>
        <nav aria-label="Policies" className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
          {LEGAL_PAGE_SLUGS.map((slug) => (
            <Link key={slug} to={`/legal/${slug}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
              {LEGAL_LINK_LABELS[slug]}
            </Link>
          ))}
        </nav>
      </Section>
    </>
  );
}

function HelpCard({ icon: Icon, title, text, children }: { icon: LucideIcon; title: string; text: string; children: ReactNode }) {
  return (
    <li className="flex flex-col rounded-3xl border border-stone-200 bg-white p-8 shadow-sm">
      <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-brand-700">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h2 className="mt-5 text-xl font-semibold text-brand-900">{title}</h2>
      <p className="mt-2 flex-1 text-sm leading-relaxed text-stone-600">{text}</p>
      <div className="mt-6">{children}</div>
    </li>
  );
}

function ContactCard({ icon: Icon, title, detail, badge, children }: { icon: LucideIcon; title: string; detail: string; badge?: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-col items-center rounded-3xl border border-stone-200 bg-white p-8 text-center shadow-sm">
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-700 text-white">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <h3 className="mt-4 flex items-center gap-2 text-lg font-semibold text-brand-900">
        {title}
        {badge}
      </h3>
      <div className="mt-3">{children}</div>
      <p className="mt-2 text-sm text-stone-600">{detail}</p>
    </li>
  );
}

/**
 * Track Order: orders are tracked through the carrier link in the shipping email, so the button
 * explains where to find it and offers the contact routes (with the order number) for anything else.
 */
function TrackOrderDialog() {
  const contact = supportContact();
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button>Track Order</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Track Your Order</DialogTitle>
          <DialogDescription>Your tracking details arrive by email as soon as your order leaves our warehouse.</DialogDescription>
        </DialogHeader>
        <ol className="list-decimal space-y-2 pl-5 text-sm leading-relaxed text-stone-700 marker:font-semibold marker:text-brand-700">
          <li>Find your order confirmation email: it shows your order number.</li>
          <li>Open the shipping confirmation email and follow its tracking link to see where your package is.</li>
          <li>Can’t find either email? Check your spam folder, or contact us with your order number and we’ll look it up for you.</li>
        </ol>
        <p className="text-sm text-stone-700">
          See an order’s status and tracking any time: signed in, under{' '}
          <a href="/account/orders" className="font-medium text-brand-700 underline underline-offset-4">
            My Orders
          </a>
          ; ordered as a guest,{' '}
          <a href="/orders/lookup" className="font-medium text-brand-700 underline underline-offset-4">
            look up your order
          </a>{' '}
          with its number and email.
        </p>
        <DialogFooter>
          <Button asChild variant="outline">
            <a href={contact.phoneHref}>
              <Phone aria-hidden="true" />
              Call {contact.phone}
            </a>
          </Button>
          <Button asChild>
            <a href={mailtoHref(contact.email, 'Order status')}>
              <Mail aria-hidden="true" />
              Email Support
            </a>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
