/**
 * Compile-time proof that a table's row and the row type its port owns are the same shape, both ways. The ports
 * (src/engine/run-rows.ts and its siblings) define the rows; a table here declares `const _x: SameShape<...> = true`
 * and stops compiling when a column drifts from the port's field.
 */
export type SameShape<Table, Port> = [Table] extends [Port] ? ([Port] extends [Table] ? true : false) : false;
