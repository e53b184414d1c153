/**
 * `{ ...base, ...extra }` for objects made every frame, where `extra` adds fields `base` lacks
 * (a track id, a mask, a timestamp). On Node 20's V8 (11.3) a spread followed by new fields gives
 * every result a hidden class of its own: 0.7-1.7 us to build, and each later read of it (heads,
 * tracker, message code) a megamorphic miss into the runtime. Object.assign into a fresh object
 * keeps one class and the same field order (~0.15 us). A spread that only overrides fields `base`
 * has does not suffer and needs no helper.
 */
export function withFields<B extends object, E extends object>(base: B, extra: E): B & E {
  return Object.assign({}, base, extra);
}
