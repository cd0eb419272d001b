import type { z } from 'zod'

/*
 * Rules about which fields a request body must carry that a zod object alone cannot state, each
 * written once for validation and for the OpenAPI document, so that generated clients enforce
 * what the gateway enforces.
 */

/** The seed SDK's names (to, text, id, …), accepted when the canonical field is absent (decisions: naming). */
export const alias = (of: string) => ({
  deprecated: true,
  description: `Alias of \`${of}\` (client SDK name); used only when \`${of}\` is absent.`,
})

/** A canonical field and its SDK alias: a body needs one of the two. */
export type AliasPair = readonly [canonical: string, alias: string]

type JsonSchema = { properties?: Record<string, unknown>; allOf?: unknown[] }

/** JSON Schema for "has this field" that generated clients turn into a required property. */
const requires = (properties: Record<string, unknown>, name: string) => ({
  type: 'object',
  properties: { [name]: properties[name] },
  required: [name],
})

/**
 * Each pair needs one of its two fields. Validation: when both are absent, the canonical field
 * "is required" (the one phrasing every missing field gets). The OpenAPI document: an `allOf` of
 * one `anyOf` per pair, so a client generated from it (openapi-typescript) refuses a body with
 * neither, where plain optional fields would let it through.
 */
export function eitherRequired<T extends z.ZodObject>(object: T, pairs: readonly AliasPair[]) {
  let checked = object
  for (const [canonical, aliasName] of pairs) {
    checked = checked.refine(
      (body) => {
        const fields = body as Record<string, unknown>
        return fields[canonical] !== undefined || fields[aliasName] !== undefined
      },
      // Checked even when other fields failed, so one answer names every missing field.
      { path: [canonical], message: 'is required', when: ({ value }) => isObject(value) },
    )
  }
  return checked.meta({
    override: ({ jsonSchema }: { jsonSchema: JsonSchema }) => {
      const properties = jsonSchema.properties ?? {}
      jsonSchema.allOf = pairs.map(([canonical, aliasName]) => ({
        anyOf: [requires(properties, canonical), requires(properties, aliasName)],
      }))
    },
  })
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * At least one field of the object (or of `names`, its fields beside a required one such as
 * sessionId): validation names them all when none was sent; the document says `minProperties`
 * and (in an `allOf`, which openapi-typescript intersects where it would join a bare `anyOf` as a
 * union) an `anyOf` over the fields, so generated clients refuse a body with none of them.
 */
export function atLeastOneOf<T extends z.ZodObject>(object: T, names: readonly string[] = Object.keys(object.shape)) {
  // Fields outside `names` that every body carries count towards minProperties too
  const required = Object.entries(object.shape as Record<string, z.ZodType>).filter(
    ([name, field]) => !names.includes(name) && !field.safeParse(undefined).success,
  ).length
  return object
    .refine((body) => names.some((name) => (body as Record<string, unknown>)[name] !== undefined), {
      message: `send at least one of ${names.join(', ')}`,
    })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: JsonSchema & { minProperties?: number } }) => {
        const properties = jsonSchema.properties ?? {}
        jsonSchema.minProperties = required + 1
        jsonSchema.allOf = [{ anyOf: names.map((name) => requires(properties, name)) }]
      },
    })
}
