// Package secret finds credentials in text and redacts them. Every record the project writes
// and every guard that looks for secrets uses these rules, so they agree.
package secret
