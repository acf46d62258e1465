// Package vision holds what surge knows about image inputs: how many
// tokens a model family makes of an image of a given size (Tokens), the
// synthetic images surge sends, made from a seed and a size so that the
// same seed gives the same bytes (Encode), a bounded cache of their
// encodings (Cache), and reading an image's size back from a data URL
// (ParseDataURL), which is how the built-in engine costs one.
//
// It imports nothing from surge: the workload counts images' tokens with
// it, the driver sends them, and the engine costs them, all with the same
// function.
package vision
