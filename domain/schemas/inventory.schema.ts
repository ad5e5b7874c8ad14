import { z } from 'zod';
import {
  CODE_FORMAT,
  MAX_CODES_PER_ITEM,
  SIGNATURE_KINDS,
  SIGNATURE_NAME_MAX,
  companyCodeProblem,
  parseCodes,
} from '../rules/inventory';
import { rowId, safeName } from './form-values';

// Condition inventories (issue 29, point 5; decision 049): the tablet's forms and the answers of the API and portal.

const sticker = safeName(
  'Sticker number',
  z
    .string({ error: 'Sticker number is required.' })
    .trim()
    .min(1, 'Sticker number is required.')
    .max(20, 'Sticker number must be at most 20 characters.'),
);
const description = safeName(
  'Description',
  z
    .string({ error: 'Description is required.' })
    .trim()
    .min(1, 'Description is required.')
    .max(200, 'Description must be at most 200 characters.'),
);
const room = safeName(
  'Room',
  z.preprocess(
    (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : v),
    z.string({ error: 'Room must be text.' }).max(60, 'Room must be at most 60 characters.'),
  ),
).transform((v) => (v === '' ? null : v));
/** Codes as a list or as typed ("br, sc"): in capitals, each once. Which exist is the server's check. */
const codes = z
  .union([z.string(), z.array(z.string().max(8, 'A code is at most 4 characters.'))], {
    error: 'Codes must be a list of condition codes.',
  })
  .transform((v) => parseCodes(v))
  .refine((v) => v.length <= MAX_CODES_PER_ITEM, `An item takes at most ${MAX_CODES_PER_ITEM} codes.`)
  .refine((v) => v.every((code) => code.length <= 4), CODE_FORMAT);
const flag = (label: string) =>
  z.preprocess(
    (v) => (v === 'true' || v === 'on' ? true : v === 'false' ? false : v),
    z.boolean({ error: `${label} must be true or false.` }),
  );

/** A new item of an inventory. */
export const InventoryItemSchema = z.object({
  sticker,
  description,
  room: room.optional().transform((v) => v ?? null),
  codes: codes.optional().transform((v) => v ?? []),
  high_value: flag('High value')
    .optional()
    .transform((v) => v ?? false),
});
export type InventoryItemInput = z.input<typeof InventoryItemSchema>;

/** A change of an item: any of its fields, or the delivery tick. */
export const InventoryItemUpdateSchema = z
  .object({
    sticker: sticker.optional(),
    description: description.optional(),
    room: room.optional(),
    codes: codes.optional(),
    high_value: flag('High value').optional(),
    delivered: flag('Delivered').optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Say what to change.');
export type InventoryItemUpdateInput = z.input<typeof InventoryItemUpdateSchema>;

/** The fields of a photo's upload form (the photo itself is the `photo` file). */
export const InventoryPhotoFormSchema = z.object({
  item_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), rowId('Item').optional()),
});

/** The fields of a signature's upload form (the drawing itself is the `signature` PNG file). */
export const InventorySignatureFormSchema = z.object({
  kind: z.enum(SIGNATURE_KINDS, { error: 'Say whether the customer signs at pickup or at delivery.' }),
  signer: safeName(
    "Signer's name",
    z
      .string({ error: "Signer's name is required." })
      .trim()
      .min(1, "Signer's name is required.")
      .max(SIGNATURE_NAME_MAX, `Signer's name must be at most ${SIGNATURE_NAME_MAX} characters.`),
  ),
});
export type InventorySignatureForm = z.input<typeof InventorySignatureFormSchema>;

/** A company's own condition code, added by a Manager. */
export const InventoryCodeSchema = z.object({
  code: z
    .string({ error: 'Code is required.' })
    .trim()
    .transform((v) => v.toUpperCase())
    .superRefine((v, ctx) => {
      const problem = companyCodeProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  meaning: safeName(
    'Meaning',
    z
      .string({ error: 'Meaning is required.' })
      .trim()
      .min(1, 'Meaning is required.')
      .max(60, 'Meaning must be at most 60 characters.'),
  ),
});
export type InventoryCodeInput = z.input<typeof InventoryCodeSchema>;

export const InventoryCodeDtoSchema = z.object({
  /** null for a standard code */
  id: z.number().int().nullable(),
  code: z.string(),
  meaning: z.string(),
  standard: z.boolean(),
});
export type InventoryCodeDto = z.infer<typeof InventoryCodeDtoSchema>;

export const InventoryItemDtoSchema = z.object({
  id: z.number().int(),
  sticker: z.string(),
  description: z.string(),
  room: z.string().nullable(),
  codes: z.array(z.string()),
  high_value: z.boolean(),
  delivered_at: z.string().nullable(),
  delivered_by: z.string().nullable(),
});
export type InventoryItemDto = z.infer<typeof InventoryItemDtoSchema>;

export const InventoryPhotoDtoSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int().nullable(),
  file_name: z.string(),
});
export type InventoryPhotoDto = z.infer<typeof InventoryPhotoDtoSchema>;

export const InventorySignatureDtoSchema = z.object({
  signer: z.string(),
  signed_at: z.string(),
  /** the drawing, an attachment of the unit */
  attachment_id: z.number().int().nullable(),
});
export type InventorySignatureDto = z.infer<typeof InventorySignatureDtoSchema>;

/** A unit's inventory; `id` is null while nothing has been recorded for the unit. */
export const InventoryDtoSchema = z.object({
  id: z.number().int().nullable(),
  vault: z.object({
    id: z.number().int(),
    number: z.string().nullable(),
    customer: z.string(),
    order: z.string().nullable(),
  }),
  items: z.array(InventoryItemDtoSchema),
  photos: z.array(InventoryPhotoDtoSchema),
  pickup: InventorySignatureDtoSchema.nullable(),
  delivery: InventorySignatureDtoSchema.nullable(),
  /** every code the company may use, standard ones first: the form's choices and the printed legend */
  codes: z.array(InventoryCodeDtoSchema),
  created_at: z.string().nullable(),
  created_by: z.string().nullable(),
});
export type InventoryDto = z.infer<typeof InventoryDtoSchema>;

/** What the customer sees of a unit's inventory in the portal: no staff names. */
export const PortalInventoryDtoSchema = z.object({
  unit: z.object({ id: z.number().int(), number: z.string().nullable() }),
  items: z.array(InventoryItemDtoSchema.omit({ delivered_by: true })),
  photos: z.array(InventoryPhotoDtoSchema),
  pickup: z.object({ signer: z.string(), signed_at: z.string() }).nullable(),
  delivery: z.object({ signer: z.string(), signed_at: z.string() }).nullable(),
  codes: z.array(InventoryCodeDtoSchema.omit({ id: true })),
});
export type PortalInventoryDto = z.infer<typeof PortalInventoryDtoSchema>;
