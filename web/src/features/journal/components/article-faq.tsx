import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';

/** The article's FAQ: one question open at a time, and the open one can be closed again. */
export function ArticleFaq({ faqs }: { faqs: { q: string; a: string }[] }) {
  return (
    <Accordion type="single" collapsible className="rounded-2xl border border-stone-200 bg-white px-5 shadow-sm sm:px-6">
      {faqs.map((faq, index) => (
        <AccordionItem key={index} value={`faq-${index}`}>
          <AccordionTrigger className="text-base">{faq.q}</AccordionTrigger>
          <AccordionContent className="text-base text-stone-600">{faq.a}</AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}
