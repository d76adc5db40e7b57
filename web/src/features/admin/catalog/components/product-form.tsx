import { zodResolver } from '@hookform/resolvers/zod';
import { PRODUCT_STATUSES } from '@nh/shared/contracts/catalog';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Loader2 } from 'lucide-react';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldError } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { productQueries } from '../api';
import { createProductFormSchema, productFormSchema, slugify, type ProductFormValues } from '../product-form-model';
import { ProductPictures } from './product-pictures';
import { VariantEditor } from './variant-editor';

/** The tax code field's help (issue 25): what the tax service is told about the product. */
export const TAX_CODE_HINT = 'A product tax code for the tax service (e.g. 31000). Leave empty for general merchandise.';

const STATUS_LABELS: Record<(typeof PRODUCT_STATUSES)[number], string> = {
  active: 'Active',
  inactive: 'Inactive',
  out_of_stock: 'Out of Stock',
};

function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: FieldError;
  hint?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children(id, error ? errorId : undefined)}
      {hint && !error && <p className="text-xs text-stone-500">{hint}</p>}
      {error?.message && (
        <p id={errorId} className="text-sm text-red-600" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}

type InputProps = ComponentProps<typeof Input>;
/** The fields typed as text (every field but the variant rows and the starter-kit checkbox). */
type TextField = Exclude<keyof ProductFormValues, 'variants' | 'isStarterKit'>;

export interface ProductFormProps {
  mode: 'create' | 'edit';
  defaultValues: ProductFormValues;
  pending: boolean;
  onSubmit: (values: ProductFormValues) => void;
}

/**
 * Create/Edit Product form (react-hook-form + zod). List fields are comma-separated; pictures can be
 * uploaded (their names join the Images list); variants are edited as rows.
 */
export function ProductForm({ mode, defaultValues, pending, onSubmit }: ProductFormProps) {
  const categories = useQuery(productQueries.categories);
  const form = useForm<ProductFormValues>({
    resolver: zodResolver(mode === 'create' ? createProductFormSchema : productFormSchema),
    defaultValues,
  });
  const { register, control, formState, setValue, getValues, getFieldState } = form;
  const images = useWatch({ control, name: 'images' });
  const errors = formState.errors;

  const text = (name: TextField, label: string, props: InputProps = {}, hint?: string) => (
    <Field label={label} error={errors[name]} hint={hint}>
      {(id, describedBy) => (
        <Input id={id} aria-invalid={describedBy ? true : undefined} aria-describedby={describedBy} {...props} {...register(name)} />
      )}
    </Field>
  );
  const area = (name: TextField, label: string, hint?: string) => (
    <Field label={label} error={errors[name]} hint={hint}>
      {(id, describedBy) => <Textarea id={id} rows={3} aria-describedby={describedBy} {...register(name)} />}
    </Field>
  );
  const list = (name: TextField, label: string) => area(name, label, 'Comma-separated');

  const nameField = register('name', {
    onChange: (event: { target: { value: string } }) => {
      if (mode === 'create' && !getFieldState('slug').isDirty) setValue('slug', slugify(event.target.value));
    },
  });

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Basics</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={errors.name}>
            {(id, describedBy) => (
              <Input id={id} aria-invalid={describedBy ? true : undefined} aria-describedby={describedBy} {...nameField} />
            )}
          </Field>
          {text('slug', 'Slug', {}, 'Lowercase words joined by hyphens')}
          {text('price', 'Price', { type: 'number', step: '0.01', min: 0, inputMode: 'decimal' })}
          {text('compareAtPrice', 'Compare-at Price', { type: 'number', step: '0.01', min: 0, inputMode: 'decimal' })}
          <Field label="Category" error={errors.categoryId}>
            {(id, describedBy) => (
              <Controller
                control={control}
                name="categoryId"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger
                      id={id}
                      className="data-[placeholder]:text-stone-600"
                      aria-describedby={describedBy}
                      aria-invalid={describedBy ? true : undefined}
                    >
                      <SelectValue placeholder={categories.isPending ? 'Loading categories...' : 'Select a category'} />
                    </SelectTrigger>
                    <SelectContent>
                      {(categories.data ?? []).map((c) => (
                        <SelectItem key={c.id} value={String(c.id)}>
                          {c.name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </Field>
          <Field label="Status" error={errors.status}>
            {(id) => (
              <Controller
                control={control}
                name="status"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id={id}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {PRODUCT_STATUSES.map((s) => (
                        <SelectItem key={s} value={s}>
                          {STATUS_LABELS[s]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            )}
          </Field>
          {text(
            'inventory',
            'Inventory',
            { type: 'number', step: 1, min: 0, inputMode: 'numeric' },
            mode === 'edit'
              ? 'A number typed here replaces the stock. To add or take away stock with a reason, use the Inventory panel below.'
              : undefined,
          )}
          {text('weight', 'Weight (oz)', { type: 'number', step: '0.01', min: 0, inputMode: 'decimal' })}
          <div className="sm:col-span-2">{area('shortDescription', 'Short Description')}</div>
          <div className="sm:col-span-2">{area('description', 'Description')}</div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Pictures</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {list('images', 'Images (file names; the first is the main picture)')}
          <ProductPictures
            images={images}
            onChange={(update) => setValue('images', update(getValues('images')), { shouldDirty: true, shouldValidate: true })}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Variants</CardTitle>
        </CardHeader>
        <CardContent>
          <VariantEditor control={control} register={register} errors={errors} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Details</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {list('ingredients', 'Ingredients')}
          {list('features', 'Features')}
          {list('uses', 'Uses')}
          {list('benefits', 'Benefits')}
          {list('kitContents', 'Kit Contents (product slugs)')}
          {area('instructions', 'Instructions')}
          {area('cautions', 'Cautions')}
          {text('itemNumber', 'Item Number')}
          {text('sku', 'SKU')}
          {text('upc', 'UPC')}
          {text('size', 'Size')}
          {text('taxCode', 'Tax Code', { autoComplete: 'off', spellCheck: false }, TAX_CODE_HINT)}
          {mode === 'create' && (
            <Controller
              control={control}
              name="isStarterKit"
              render={({ field }) => (
                <label className="flex items-center gap-2 text-sm font-medium sm:col-span-2">
                  <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                  Starter Kit
                </label>
              )}
            />
          )}
        </CardContent>
      </Card>

      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" asChild>
          <Link to="/admin-products">Cancel</Link>
        </Button>
        <Button type="submit" disabled={pending}>
          {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
          {mode === 'create' ? 'Create Product' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}

export function BackToProducts() {
  return (
    <Link to="/admin-products" className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to Products
    </Link>
  );
}
