// Package spell measures how far a mistyped name is from a known one, for the did-you-mean of
// the settings linter and of the guard's policy files.
package spell
