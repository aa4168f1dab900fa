package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	cloudDeleteProduction   = &Rule{ID: "cloud.delete-production", Action: Deny, Radius: High, Instead: "ask the user to do this on production themselves"}
	cloudDeleteListed       = &Rule{ID: "cloud.delete-listed", Action: Deny, Radius: High, Instead: "delete the ones you mean by name"}
	cloudAppDestroy         = &Rule{ID: "cloud.app-destroy", Action: Deny, Radius: High, Instead: "ask the user to destroy apps themselves"}
	cloudBucketDelete       = &Rule{ID: "cloud.bucket-delete", Action: Deny, Radius: High, Instead: "delete the objects you mean by name"}
	cloudClusterDelete      = &Rule{ID: "cloud.cluster-delete", Action: Deny, Radius: High, Instead: "ask the user to delete clusters themselves"}
	cloudDelete             = &Rule{ID: "cloud.delete", Action: Ask, Radius: Medium, Instead: "check the resource first"}
	cloudDeleteAll          = &Rule{ID: "cloud.delete-all", Action: Deny, Radius: High, Instead: "delete the resources you mean by id"}
	cloudDeleteCritical     = &Rule{ID: "cloud.delete-critical", Action: Deny, Radius: High, Instead: "ask the user to delete production resources themselves"}
	cloudIacDestroy         = &Rule{ID: "cloud.iac-destroy", Action: Deny, Radius: High, Instead: "run terraform plan -destroy and ask the user to apply it"}
	cloudIacDestroyPreview  = &Rule{ID: "cloud.iac-destroy-preview", Action: Ask, Radius: Medium, Instead: "check the stage name first"}
	cloudIacDestroyTarget   = &Rule{ID: "cloud.iac-destroy-target", Action: Ask, Radius: Medium, Instead: "check the plan with terraform plan -destroy -target=... first"}
	cloudIacStackRm         = &Rule{ID: "cloud.iac-stack-rm", Action: Ask, Radius: Medium, Instead: "destroy the stack's resources first, then remove it"}
	cloudIacStateRm         = &Rule{ID: "cloud.iac-state-rm", Action: Ask, Radius: Medium, Instead: "check with terraform state list, and prefer a removed block in the configuration"}
	cloudIacStateRmAll      = &Rule{ID: "cloud.iac-state-rm-all", Action: Deny, Radius: High, Instead: "remove the one resource you mean"}
	cloudIacWorkspaceDelete = &Rule{ID: "cloud.iac-workspace-delete", Action: Deny, Radius: High, Instead: "destroy or migrate the resources first, and ask the user"}
	cloudS3Delete           = &Rule{ID: "cloud.s3-delete", Action: Deny, Radius: High, Instead: "delete the objects you mean by key, or use a lifecycle rule"}
	cloudSdkWholesale       = &Rule{ID: "cloud.sdk-wholesale", Action: Deny, Radius: High, Instead: "delete the resources you mean by name, and ask the user first"}
)

var packCloud = pack{name: "cloud", title: "cloud and infrastructure",
	rules: []*Rule{cloudDeleteProduction, cloudDeleteListed, cloudAppDestroy, cloudBucketDelete, cloudClusterDelete, cloudDelete, cloudDeleteAll, cloudDeleteCritical, cloudIacDestroy, cloudIacDestroyPreview, cloudIacDestroyTarget, cloudIacStackRm, cloudIacStateRm, cloudIacStateRmAll, cloudIacWorkspaceDelete, cloudS3Delete, cloudSdkWholesale},
	programs: []program{
		{[]string{"terraform", "tofu", "terragrunt"}, (*judge).terraform}, {[]string{"pulumi"}, (*judge).pulumi},
		{[]string{"cdk", "cdktf", "serverless", "sls", "sst", "amplify"}, (*judge).stackTool},
		{[]string{"eksctl", "heroku", "doctl"}, (*judge).platform}, {[]string{"bq"}, (*judge).bigquery},
		{[]string{"aws"}, (*judge).aws}, {[]string{"gcloud"}, (*judge).gcloud}, {[]string{"gsutil"}, (*judge).gsutil}, {[]string{"az"}, (*judge).az},
	},
	production: cloudDeleteProduction, listed: cloudDeleteListed,
}

// The option grammars of the programs this file judges: which options take a value.
var (
	platformOpts  = shell.Opts{Short: "fr", Long: []string{"name", "region", "app", "confirm", "context", "access-token", "output", "format"}}
	stackToolOpts = shell.Opts{Long: []string{"app", "a", "profile", "context", "c", "region", "stage", "s", "output", "o", "config"}}
	awsOpts       = shell.Opts{Long: []string{"profile", "region", "output", "endpoint-url", "query", "instance-ids", "bucket", "key"}}
	gcloudOpts    = shell.Opts{Long: []string{"project", "zone", "region", "format", "account"}}
	gsutilOpts    = shell.Opts{Short: "hop", Long: []string{}}
	azOpts        = shell.Opts{Long: []string{"name", "resource-group", "subscription", "output"}}
	bigqueryOpts  = shell.Opts{Long: []string{"project_id", "location"}}
)

// scratchBucket reports a bucket named for development or scratch data (acme-dev-scratch).
func scratchBucket(b string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(b), func(r rune) bool { return r == '-' || r == '.' || r == '_' }) {
		switch w {
		case "dev", "development", "test", "testing", "scratch", "tmp", "temp", "sandbox", "ci", "playground":
			return true
		}
	}
	return false
}

func (j *judge) terraform(c *shell.Cmd) {
	p := shell.Opts{}.Parse(c.Args)
	if len(p.Operands) == 0 {
		return
	}
	sub := p.Operands[0]
	if sub == "workspace" && at(p.Operands, 1) == "delete" && (p.Has("force") || contains(c.Args, "-force")) {
		j.add(c, cloudIacWorkspaceDelete, c.Name+" workspace delete discards the workspace's state: the resources stay, unmanaged", "")
		return
	}
	if sub == "run-all" || sub == "run" && at(p.Operands, 1) == "--all" {
		p.Operands = p.Operands[1:] // terragrunt run-all destroy
		if len(p.Operands) > 0 && p.Operands[0] == "--all" {
			p.Operands = p.Operands[1:]
		}
		if len(p.Operands) == 0 {
			return
		}
		sub = p.Operands[0]
	}
	if sub == "state" && len(p.Operands) > 1 && p.Operands[1] == "rm" && massListing(c.ArgsFrom) {
		j.add(c, cloudIacStateRmAll, c.Name+" state rm of everything state list printed makes it forget the whole estate", "")
		return
	}
	if sub == "state" && len(p.Operands) > 1 && p.Operands[1] == "rm" {
		j.add(c, cloudIacStateRm, c.Name+" state rm makes it forget resources, which it will then create again or leave unmanaged", "")
		return
	}
	destroy := sub == "destroy" || sub == "apply" && (p.Has("destroy") || contains(c.Args, "-destroy"))
	if !destroy {
		return
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-target") {
			j.add(c, cloudIacDestroyTarget, c.Name+" destroy of a targeted resource", "")
			return
		}
	}
	j.add(c, cloudIacDestroy, c.Name+" destroy deletes every resource of the configuration", "")
}

// platform covers the cluster and platform CLIs whose delete takes a whole cluster or app:
// eksctl delete cluster, heroku apps:destroy, doctl ... delete.
func (j *judge) platform(c *shell.Cmd) {
	ops := platformOpts.Parse(c.Args).Operands
	switch {
	case c.Name == "eksctl" && len(ops) > 1 && ops[0] == "delete" && ops[1] == "cluster":
		j.add(c, cloudClusterDelete, "eksctl delete cluster deletes the cluster and everything running in it", "")
	case c.Name == "heroku" && len(ops) > 0 && (ops[0] == "apps:destroy" || ops[0] == "destroy"):
		j.add(c, cloudAppDestroy, "heroku apps:destroy deletes the app with its add-ons and data", "")
	case c.Name == "doctl" && len(ops) > 2 && ops[0] == "kubernetes" && ops[1] == "cluster" && (ops[2] == "delete" || ops[2] == "rm"):
		j.add(c, cloudClusterDelete, "doctl kubernetes cluster delete deletes the cluster and everything running in it", "")
	case c.Name == "doctl" && (contains(ops[:min(len(ops), 3)], "delete") || contains(ops[:min(len(ops), 3)], "rm")):
		j.add(c, cloudDelete, "doctl deletes "+strings.Join(ops, " "), "check what it deletes with the matching get or list command")
	}
}

func (j *judge) pulumi(c *shell.Cmd) {
	if len(c.Args) > 0 && (c.Args[0] == "destroy" || c.Args[0] == "down") {
		j.add(c, cloudIacDestroy, "pulumi destroy deletes every resource of the stack", "preview with pulumi destroy --preview-only and ask the user")
	}
	if len(c.Args) > 1 && c.Args[0] == "stack" && (c.Args[1] == "rm" || c.Args[1] == "remove") {
		j.add(c, cloudIacStackRm, "pulumi stack rm deletes the stack and its state", "")
	}
}

// stackTool: CLIs that deploy a whole stack and tear it down again (cdk destroy, cdktf
// destroy, serverless remove, sst remove, amplify delete).
func (j *judge) stackTool(c *shell.Cmd) {
	ops := stackToolOpts.Parse(c.Args).Operands
	if len(ops) == 0 {
		return
	}
	switch {
	case (c.Name == "cdk" || c.Name == "cdktf") && ops[0] == "destroy",
		(c.Name == "serverless" || c.Name == "sls" || c.Name == "sst") && ops[0] == "remove",
		c.Name == "amplify" && ops[0] == "delete":
		if previewStage(c.Args) {
			j.add(c, cloudIacDestroyPreview, c.Name+" "+ops[0]+" deletes every resource of a development or preview stack", "")
			return
		}
		j.add(c, cloudIacDestroy, c.Name+" "+ops[0]+" deletes every resource of the stack", "ask the user to tear down stacks themselves")
	}
}

func (j *judge) aws(c *shell.Cmd) {
	p := awsOpts.Parse(c.Args)
	ops := p.Operands
	if len(ops) < 2 {
		return
	}
	svc, op := ops[0], ops[1]
	switch {
	case svc == "s3" && op == "rm" && p.Has("recursive"):
		bucket, prefix, _ := strings.Cut(strings.TrimPrefix(at(ops, 2), "s3://"), "/")
		// A prefix in a scratch bucket (acme-dev-scratch/tmp/) is a cleanup; anything else is data.
		if strings.Trim(prefix, "/*") == "" || !scratchBucket(bucket) || prodWord(bucket) || !shell.Known(prefix) {
			j.add(c, cloudS3Delete, "aws s3 rm --recursive deletes every object under "+or(at(ops, 2), "the prefix"), "")
		}
	case svc == "s3" && op == "rb" && p.Has("force"):
		j.add(c, cloudS3Delete, "aws s3 rb --force deletes a bucket and everything in it", "empty and remove the bucket by hand after checking it")
	case svc == "s3" && op == "sync" && p.Has("delete") && strings.HasPrefix(at(ops, 3), "s3://") && at(ops, 2) != "" && !strings.HasPrefix(at(ops, 2), "s3://"):
		// uploading a local tree with --delete is a deploy; allowed
	case svc == "kms" && (op == "schedule-key-deletion" || op == "disable-key"), svc == "route53" && op == "delete-hosted-zone",
		svc == "secretsmanager" && op == "delete-secret" && p.Has("force-delete-without-recovery"),
		svc == "ec2" && op == "terminate-instances", svc == "rds" && strings.HasPrefix(op, "delete-db"),
		svc == "cloudformation" && op == "delete-stack", svc == "dynamodb" && op == "delete-table",
		svc == "eks" && op == "delete-cluster", svc == "iam" && op == "delete-user", svc == "s3api" && op == "delete-bucket":
		j.add(c, cloudDeleteCritical, "aws "+svc+" "+op+" deletes cloud resources for good", "")
	case (strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate-")) && massListing(c.ArgsFrom):
		j.add(c, cloudDeleteAll, "aws "+svc+" "+op+" is run on everything a listing produced", "")
	case op == "delete-item" || op == "delete-object" || op == "delete-message" || op == "delete-tags" || op == "delete-objects" && !massListing(c.ArgsFrom):
		// one item, object or message: ordinary data work
	case strings.HasPrefix(op, "delete-") || strings.HasPrefix(op, "terminate-"):
		j.add(c, cloudDelete, "aws "+svc+" "+op+" deletes cloud resources", "check the resource id first")
	}
}

func (j *judge) gcloud(c *shell.Cmd) {
	ops := gcloudOpts.Parse(c.Args).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "projects delete"):
		j.add(c, cloudDeleteCritical, "gcloud projects delete deletes a whole project and everything in it", "ask the user to delete projects themselves")
	case strings.HasPrefix(s, "storage rm") && (contains(c.Args, "-r") || contains(c.Args, "--recursive")):
		j.add(c, cloudBucketDelete, "gcloud storage rm -r deletes every object under the path", "")
	case contains(ops, "delete"):
		j.add(c, cloudDelete, "gcloud "+s+" deletes cloud resources", "")
	}
}

func (j *judge) gsutil(c *shell.Cmd) {
	ops := gsutilOpts.Parse(c.Args)
	for i, a := range ops.Operands {
		if (a == "rm" || a == "rb") && (contains(c.Args[i:], "-r") || contains(c.Args, "-R") || contains(c.Args, "-rf") || a == "rb") {
			j.add(c, cloudBucketDelete, "gsutil "+a+" -r deletes a bucket's objects wholesale", "")
			return
		}
	}
}

func (j *judge) az(c *shell.Cmd) {
	ops := azOpts.Parse(c.Args).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "group delete"):
		j.add(c, cloudDeleteCritical, "az group delete deletes a resource group and everything in it", "ask the user to delete resource groups themselves")
	case contains(ops, "delete"):
		j.add(c, cloudDelete, "az "+s+" deletes cloud resources", "")
	}
}

// bigquery: bq rm of a dataset or table.
func (j *judge) bigquery(c *shell.Cmd) {
	p := bigqueryOpts.Parse(c.Args)
	if len(p.Operands) == 0 || p.Operands[0] != "rm" {
		return
	}
	if p.Has("r", "recursive") || p.Has("d", "dataset") {
		j.add(c, cloudDelete, "bq rm deletes a dataset (with -r every table in it)", "delete the table you mean")
	}
}
