package danger

import (
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// inNamespace reports a kubectl command aimed at the namespace ns.
func inNamespace(p shell.Parsed, ns string) bool {
	v, _ := p.Value("n", "namespace")
	return v == ns
}

// helm: uninstalling a release deletes everything it installed.
func (j *judge) helm(c *shell.Cmd) {
	ops := shell.Opts{Short: "n", Long: []string{"namespace", "kube-context", "kubeconfig", "timeout"}}.Parse(c.Args).Operands
	if len(ops) == 0 || ops[0] != "uninstall" && ops[0] != "delete" && ops[0] != "del" && ops[0] != "un" {
		return
	}
	if len(c.ArgsFrom) > 0 && massListing(c.ArgsFrom) {
		j.add(c, "container.helm-uninstall-all", Deny, High, "it uninstalls every release a listing produced, with all their resources", "uninstall the release you mean by name")
		return
	}
	if w := prodArgs(c); w != "" {
		j.add(c, "container.helm-uninstall", Deny, High, "helm uninstall deletes every resource the release installed, and it names production ("+w+")", "ask the user to uninstall production releases")
	}
}

func (j *judge) kubectl(c *shell.Cmd) {
	p := shell.Opts{Short: "nclfo", Long: []string{"namespace", "context", "selector", "filename", "output", "kubeconfig", "cluster", "field-selector"}}.Parse(c.Args)
	ops := p.Operands
	if len(ops) > 0 && ops[0] == "scale" && p.Has("all") && (contains(c.Args, "--replicas=0") || p.Flags["replicas"] == "0") {
		j.add(c, "container.k8s-scale-all", Ask, Medium, "it scales every deployment to zero: an outage of the namespace", "scale the deployment you mean by name")
		return
	}
	if len(ops) > 0 && ops[0] == "drain" && len(c.ArgsFrom) > 0 && massListing(c.ArgsFrom) {
		j.add(c, "container.k8s-drain-all", Deny, High, "it drains every node a listing produced, evicting every workload in the cluster", "drain one node at a time")
		return
	}
	if len(ops) == 0 || ops[0] != "delete" {
		return
	}
	for _, f := range c.ArgsFrom {
		if (f.Name == "kubectl" || f.Name == "oc") && contains(f.Args, "get") && (contains(f.Args, "ns") || contains(f.Args, "namespace") || contains(f.Args, "namespaces")) {
			j.add(c, "container.k8s-namespace", Deny, High, "it deletes the namespaces a listing produced, and with them everything running in them", "delete the namespace you mean by name")
			return
		}
	}
	if massListing(c.ArgsFrom) {
		j.add(c, "container.k8s-delete-all", Ask, High, "it deletes every resource a listing printed", "delete the resources you mean by name or label")
		return
	}
	kind := at(ops, 1)
	switch {
	case kind == "namespace" || kind == "namespaces" || kind == "ns" || strings.HasPrefix(kind, "namespace/") || strings.HasPrefix(kind, "ns/"):
		j.add(c, "container.k8s-namespace", Deny, High, "deleting a namespace deletes everything running in it", "delete the workloads you mean by name")
	case p.Has("all", "A", "all-namespaces"):
		j.add(c, "container.k8s-all", Deny, High, "kubectl delete --all removes every resource of that kind", "delete the resources you mean by name or label")
	case inNamespace(p, "kube-system") && kind != "pod" && kind != "pods" && !strings.HasPrefix(kind, "pod/"):
		j.add(c, "container.k8s-system", Deny, High, "it deletes "+kind+" from kube-system, which the whole cluster runs on", "leave kube-system to the cluster's operators")
	case kind == "crd" || kind == "crds" || kind == "customresourcedefinition" || kind == "customresourcedefinitions" || strings.HasPrefix(kind, "crd/") || strings.HasPrefix(kind, "customresourcedefinition"):
		j.add(c, "container.k8s-crd", Deny, High, "deleting a custom resource definition deletes every resource of that kind in the cluster", "delete the resources you mean by name")
	case kind == "pv" || kind == "pvc" || kind == "persistentvolumeclaim" || kind == "persistentvolume" || kind == "crd" || kind == "customresourcedefinition" || kind == "node":
		j.add(c, "container.k8s-data", Ask, Medium, "kubectl delete "+kind+" can destroy stored data or workloads", "check what depends on it first")
	}
}

func (j *judge) docker(c *shell.Cmd) {
	sub, compose := shell.EngineArgs(c.Name, c.Args)
	if compose {
		if at(sub, 0) == "down" && (slices.Contains(sub, "-v") || slices.Contains(sub, "--volumes")) {
			j.add(c, "container.compose-volumes", Ask, Medium, "compose down -v deletes the project's named volumes and the data in them", "leave -v off to keep the data")
		}
		return
	}
	if ops := (shell.Opts{}).Parse(sub); len(ops.Operands) > 0 && ops.Has("a", "all") {
		switch o := ops.Operands; {
		case o[0] == "rm" || o[0] == "rmi" || (o[0] == "container" || o[0] == "image" || o[0] == "pod") && at(o, 1) == "rm":
			j.add(c, "container.rm-all", Deny, High, c.Name+" "+strings.Join(o[:min(2, len(o))], " ")+" --all removes every container, image or pod", "remove the ones you mean by name")
			return
		case o[0] == "volume" && at(o, 1) == "rm":
			if ops.Has("f", "force") {
				j.add(c, "container.rm-all", Deny, High, c.Name+" volume rm --all --force deletes every volume's data, in use or not", "remove the volumes you mean by name")
			} else {
				j.add(c, "container.prune", Ask, Medium, c.Name+" volume rm --all deletes the data of every unused volume", "remove the volumes you mean by name")
			}
			return
		}
	}
	ops := shell.Opts{Short: "f", Long: []string{"filter", "format"}}.Parse(sub).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "system prune"):
		j.add(c, "container.prune", Ask, Medium, "docker system prune removes stopped containers, images, networks (and with --volumes, data)", "remove the containers or images you mean by name")
	case s == "system reset" || strings.HasPrefix(s, "system reset "):
		j.add(c, "container.rm-all", Deny, High, c.Name+" system reset deletes every container, image, network and volume", "remove what you mean by name")
	case strings.HasPrefix(s, "volume prune"):
		j.add(c, "container.prune", Ask, Medium, "docker volume prune deletes the data of every unused volume", "remove the volumes you mean by name")
	case strings.HasPrefix(s, "rm") || strings.HasPrefix(s, "rmi") || strings.HasPrefix(s, "volume rm") || strings.HasPrefix(s, "container rm") || strings.HasPrefix(s, "image rm"):
		for _, f := range c.ArgsFrom {
			if (f.Name == "docker" || f.Name == "podman" || f.Name == "nerdctl") && !filtered(f.Args) {
				j.add(c, "container.rm-all", Deny, High, "it removes every container, image or volume that docker lists", "remove the ones you mean by name")
				return
			}
		}
	}
}

// filtered reports a docker listing narrowed by --filter or -f.
func filtered(args []string) bool {
	for _, a := range args {
		if a == "-f" || a == "--filter" || strings.HasPrefix(a, "--filter=") {
			return true
		}
	}
	return false
}
