/**
 * Zod fields the tool argument schemas share, each with its `.describe()` for
 * the model. Window bounds are checked by the tools themselves, so that an
 * out-of-window value gets a clear one-line error instead of a schema failure.
 */
import { z } from "zod";

/** A task id as the model sends it. */
export function taskIdField(description: string) {
  return z.string().min(1).describe(description);
}

/** A 1-based day index of the window. */
export function dayField(description: string) {
  return z.number().int().describe(description);
}

/** A 1-based slot number of a day. */
export function slotField(description: string) {
  return z.number().int().describe(description);
}

/** An optional day index; the description sits on the optional wrapper, where schema exporters look. */
export function optionalDayField(description: string) {
  return z.number().int().optional().describe(description);
}

/** An optional slot number; the description sits on the optional wrapper. */
export function optionalSlotField(description: string) {
  return z.number().int().optional().describe(description);
}

/** An optional cap on the lines a list shows. */
export function limitField(defaultLimit: number) {
  return z.number().int().min(1).max(100).optional().describe(`Most lines (default ${defaultLimit}).`);
}
