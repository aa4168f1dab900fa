// Package verdict is the vocabulary a guard's verdict travels in, from the rule that made it to
// the answer, the audit record and the rule listing: actions, blast radii, rules and the tag
// that names a rule on an answer. It imports nothing of the harness.
package verdict
