// Text an operator supplies in a file (a workspace bundle, a questions or policies file, an ingested document): a
// byte-order mark, as Windows editors write one, is not part of its content, and its lines end in LF or CRLF.

const BYTE_ORDER_MARK = /^\uFEFF/;

export const withoutByteOrderMark = (text: string): string => text.replace(BYTE_ORDER_MARK, "");

/** The file's lines, without the byte-order mark and the line ends. */
export const fileLines = (text: string): string[] => withoutByteOrderMark(text).split(/\r?\n/);
