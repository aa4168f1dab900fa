package danger

// The rules of the analysis itself: what cannot be read is not let through.
var (
	limitsAnalysis = &Rule{ID: "limits.analysis", Action: Deny, Radius: Medium, Instead: "split it into smaller commands"}
	limitsParse    = &Rule{ID: "limits.parse", Action: Deny, Radius: Medium, Instead: "fix the syntax and run it again"}
	limitsUnread   = &Rule{ID: "limits.unread", Action: Ask, Radius: Medium, Instead: "run the commands themselves, written out"}
)

var packLimits = pack{name: "limits", title: "limits", rules: []*Rule{limitsAnalysis, limitsParse, limitsUnread}}
