// Package canary proves that an installed guard enforces: it feeds the guard a known-dangerous
// and a known-safe payload, exactly as its client would (same binary, same arguments, same
// timeout in the client's unit, the payload in the client's shape), reads the answer the way
// that client reads it, and says whether the guard stopped the first and stayed silent on the
// second.
package canary
