import { z } from 'zod';
import { COMPANY_LOCALES } from '../rules/locale';

/** A Manager's change to the company's settings: the locale its dates and numbers are shown in. */
export const CompanySettingsSchema = z.object({
  locale: z.enum(COMPANY_LOCALES, { error: 'Choose one of the listed languages and regions.' }),
});
export type CompanySettingsInput = z.infer<typeof CompanySettingsSchema>;

export interface CompanySettingsDto {
  id: number;
  name: string;
  locale: string;
}

/** PATCH /api/company's answer (decision 045). */
export const CompanySettingsDtoSchema: z.ZodType<CompanySettingsDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  locale: z.string(),
});
