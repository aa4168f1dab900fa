// Package hook is the runtime of one hook process: it reads the payload, calls the hook within
// its own deadline, applies the hook's failure policy, and writes exactly one answer.
package hook
