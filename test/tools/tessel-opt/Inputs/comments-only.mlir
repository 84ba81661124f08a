// A file with comments and blank lines only.

// Still no operations.
