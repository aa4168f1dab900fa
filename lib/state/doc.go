// Package state writes the files the harness keeps: atomically replaced files and locks.
package state
