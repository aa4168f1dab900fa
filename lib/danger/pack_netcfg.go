package danger

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	netcfgFlush = &Rule{ID: "netcfg.flush", Action: Ask, Radius: Medium, Instead: "save the rules first (iptables-save, nft list ruleset, ip route show) and change the one rule or route you mean"}
)

var packNetcfg = pack{name: "netcfg", title: "firewall and network settings",
	rules: []*Rule{netcfgFlush},
	programs: []program{
		{[]string{"iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft"}, (*judge).iptables},
		{[]string{"nft"}, (*judge).nft}, {[]string{"ip"}, (*judge).ipFlush}, {[]string{"ufw"}, (*judge).ufw},
		{[]string{"pfctl"}, (*judge).pfctl}, {[]string{"socketfilterfw"}, (*judge).socketfilterfw},
	},
}

// iptables -F (--flush) drops every rule of a table: the firewall is open, or, under a DROP
// policy, the machine is cut off.
func (j *judge) iptables(c *shell.Cmd) {
	if slices.Contains(c.Args, "-F") || slices.Contains(c.Args, "--flush") {
		j.add(c, netcfgFlush, c.Name+" --flush deletes every firewall rule of the table", "")
	}
}

// nft flush ruleset|table|chain empties the firewall; list and add are everyday.
func (j *judge) nft(c *shell.Cmd) {
	ops := shell.Opts{Short: "fIc"}.Parse(c.Args).Operands
	if at(ops, 0) == "flush" && (at(ops, 1) == "ruleset" || at(ops, 1) == "table" || at(ops, 1) == "chain") {
		j.add(c, netcfgFlush, "nft flush "+at(ops, 1)+" deletes every firewall rule in it", "")
	}
}

// ip addr|route|rule flush drops the machine's addresses, routes or routing rules: the network
// is gone until they are set again. (ip neigh flush empties a cache.)
func (j *judge) ipFlush(c *shell.Cmd) {
	ops := shell.Opts{Short: "f", Long: []string{"family", "netns"}}.Parse(c.Args).Operands
	obj := at(ops, 0)
	if len(ops) < 2 || !strings.HasPrefix("flush", ops[1]) || at(ops, 2) == "cache" {
		return // ip route flush cache empties a cache
	}
	for _, o := range [...]struct{ full, what string }{{"address", "addresses"}, {"route", "routes"}, {"rule", "routing rules"}} {
		if obj != "" && strings.HasPrefix(o.full, obj) {
			j.add(c, netcfgFlush, "ip "+o.full+" flush drops the machine's "+o.what+": the network is cut until they are set again", "")
			return
		}
	}
}

// ufw reset removes every firewall rule and disables the firewall.
func (j *judge) ufw(c *shell.Cmd) {
	switch ops := (shell.Opts{}).Parse(c.Args).Operands; at(ops, 0) {
	case "reset":
		j.add(c, netcfgFlush, "ufw reset deletes every firewall rule and disables the firewall", "")
	case "disable":
		j.add(c, netcfgFlush, "ufw disable turns the firewall off: every port is open until it is on again", "")
	}
}

// pfctl -F (flush) all or rules empties macOS's (and the BSDs') packet filter, and -d turns it
// off; -s and -n only show or check.
func (j *judge) pfctl(c *shell.Cmd) {
	for i, a := range c.Args {
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			continue
		}
		if f, ok := strings.CutPrefix(a, "-F"); ok {
			what := cmp.Or(f, at(c.Args, i+1))
			if what == "all" || what == "rules" || what == "Tables" || what == "nat" {
				j.add(c, netcfgFlush, "pfctl -F "+what+" flushes the packet filter's rules, leaving the firewall open", "")
				return
			}
		}
		if a == "-d" {
			j.add(c, netcfgFlush, "pfctl -d turns the packet filter off", "")
			return
		}
	}
}

// socketfilterfw --setglobalstate off turns macOS's application firewall off.
func (j *judge) socketfilterfw(c *shell.Cmd) {
	for i, a := range c.Args {
		if a == "--setglobalstate" && at(c.Args, i+1) == "off" {
			j.add(c, netcfgFlush, "socketfilterfw --setglobalstate off turns the macOS firewall off", "turn it back on when done, or ask the user")
			return
		}
	}
}
