package builtin

import (
	"github.com/hookkit/harness/lib/builtin/auditlog"
	"github.com/hookkit/harness/lib/builtin/secretguard"
	"github.com/hookkit/harness/lib/builtin/securityvalidator"
	"github.com/hookkit/harness/lib/builtin/writeprotector"
	"github.com/hookkit/harness/lib/hook"
)

// Hook is one hook as a library: what its binary runs.
type Hook struct {
	Spec hook.Spec
	Run  hook.Func
}

// Hooks are the hooks that run on every tool call, by name: the three guards and AuditLog.
var Hooks = map[string]Hook{
	"SecurityValidator": {securityvalidator.Spec, securityvalidator.Run},
	"WriteProtector":    {writeprotector.Spec, writeprotector.Run},
	"SecretGuard":       {secretguard.Spec, secretguard.Run},
	"AuditLog":          {auditlog.Spec, auditlog.Run},
}
