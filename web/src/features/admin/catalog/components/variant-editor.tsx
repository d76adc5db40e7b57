/** The product's variants (the `variants` field): rows of label, price and SKU, added and removed. */
import { Plus, Trash2 } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { useFieldArray, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { emptyVariant, MAX_VARIANTS, type ProductFormValues } from '../product-form-model';

type VariantField = 'label' | 'price' | 'sku';

function VariantInput({ label, error, ...input }: ComponentProps<typeof Input> & { label: string; error?: string }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function VariantEditor({
  control,
  register,
  errors,
}: {
  control: Control<ProductFormValues>;
  register: UseFormRegister<ProductFormValues>;
  errors: FieldErrors<ProductFormValues>;
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'variants' });
  const message = (index: number, field: VariantField) => errors.variants?.[index]?.[field]?.message;
  const arrayMessage = errors.variants?.root?.message ?? errors.variants?.message;

  return (
    <div className="grid grid-cols-1 gap-4">
      {fields.length === 0 ? (
        <p className="text-sm text-stone-600">No variants: the product is sold as one item at its own price.</p>
      ) : (
        <ol className="grid grid-cols-1 gap-3">
          {fields.map((field, index) => (
            <li
              key={field.id}
              className="grid items-start gap-3 rounded-lg border border-stone-200 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1.5fr)_auto]"
              data-testid={`variant-${index}`}
            >
              <VariantInput
                label={`Variant ${index + 1} label`}
                placeholder="32 oz"
                maxLength={100}
                error={message(index, 'label')}
                {...register(`variants.${index}.label`)}
              />
              <VariantInput
                label={`Variant ${index + 1} price`}
                type="number"
                step="0.01"
                min={0}
                inputMode="decimal"
                error={message(index, 'price')}
                {...register(`variants.${index}.price`)}
              />
              <VariantInput
                label={`Variant ${index + 1} SKU`}
                maxLength={100}
                error={message(index, 'sku')}
                {...register(`variants.${index}.sku`)}
              />
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="sm:mt-5"
                onClick={() => remove(index)}
                aria-label={`Remove variant ${index + 1}`}
              >
                <Trash2 aria-hidden="true" />
                Remove
              </Button>
            </li>
          ))}
        </ol>
      )}
      {arrayMessage && (
        <p className="text-sm text-red-600" role="alert">
          {arrayMessage}
        </p>
      )}
      <div>
        <Button type="button" variant="outline" onClick={() => append(emptyVariant)} disabled={fields.length >= MAX_VARIANTS}>
          <Plus aria-hidden="true" />
          Add variant
        </Button>
      </div>
    </div>
  );
}
