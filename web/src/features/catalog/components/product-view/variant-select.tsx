import { formatCents } from '@nh/shared/money';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { validPrice, type CatalogVariant } from '../../product-model';

/** "Choose Size": each variant with its price when it has one. */
export function VariantSelect({ variants, value, onChange }: { variants: CatalogVariant[]; value: string; onChange: (sku: string) => void }) {
  return (
    <div className="space-y-2">
      <label id="choose-size-label" className="text-sm font-medium text-stone-800">
        Choose Size
      </label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger aria-labelledby="choose-size-label" data-testid="variant-select">
          <SelectValue placeholder="Choose Size" />
        </SelectTrigger>
        <SelectContent>
          {variants.map((v) => (
            <SelectItem key={v.sku} value={v.sku}>
              {v.label}
              {validPrice(v.priceCents) ? ` – ${formatCents(v.priceCents)}` : ''}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
