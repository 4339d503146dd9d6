/** Any JSON value: what schemas, tool definitions and stored documents are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
