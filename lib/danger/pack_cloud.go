package danger

import (
	"cmp"
	"path"
	"slices"
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
	cloudServerDelete       = &Rule{ID: "cloud.server-delete", Action: Ask, Radius: Medium, Instead: "check that nothing runs on it any more (and take a snapshot), or let the user delete it"}
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
	cloudSyncDelete         = &Rule{ID: "cloud.sync-delete", Action: Ask, Radius: Medium, Instead: "sync without the delete option (it only adds and updates), or run it with --dryrun first to see what it would delete"}
	// A sync from a bucket deleting local files: the bucket's name (production or not) is the
	// source, which nothing deletes.
	cloudSyncDeleteLocal    = &Rule{ID: "cloud.sync-delete-local", Action: Ask, Radius: Medium, scoped: true, Instead: "sync into an empty folder, or without --delete"}
	cloudIacApplyUnreviewed = &Rule{ID: "cloud.iac-apply-unreviewed", Action: Ask, Radius: High, Instead: "run the plan (terraform plan -out=tfplan, pulumi preview, cdk diff), show it to the user, and apply what they approved", scoped: true}
	cloudSdkWholesale       = &Rule{ID: "cloud.sdk-wholesale", Action: Deny, Radius: High, Instead: "delete the resources you mean by name, and ask the user first"}
)

var packCloud = pack{name: "cloud", title: "cloud and infrastructure",
	rules: []*Rule{cloudDeleteProduction, cloudDeleteListed, cloudAppDestroy, cloudBucketDelete, cloudClusterDelete, cloudServerDelete, cloudDelete, cloudDeleteAll, cloudDeleteCritical, cloudIacDestroy, cloudIacDestroyPreview, cloudIacDestroyTarget, cloudIacStackRm, cloudIacStateRm, cloudIacStateRmAll, cloudIacWorkspaceDelete, cloudS3Delete, cloudSyncDelete, cloudSyncDeleteLocal, cloudIacApplyUnreviewed, cloudSdkWholesale},
	programs: []program{
		{[]string{"terraform", "tofu", "terragrunt"}, (*judge).terraform}, {[]string{"pulumi"}, (*judge).pulumi},
		{[]string{"cdk", "cdktf", "serverless", "sls", "sst", "amplify", "sam"}, (*judge).stackTool},
		{[]string{"eksctl", "heroku", "doctl"}, (*judge).platform}, {[]string{"bq"}, (*judge).bigquery},
		{[]string{"hcloud", "ovhcloud", "railway", "openstack", "render", "nova"}, func(j *judge, c *shell.Cmd) { j.serverDelete(c) }},
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
	azOpts        = shell.Opts{Short: "cs", Long: []string{"name", "resource-group", "subscription", "output", "container", "destination", "source", "account-name", "delete-destination", "account-key", "sas-token", "connection-string"}}
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

// planFile reports terraform apply given a saved plan: a last word that is no option and no
// option's value (-var k=v, -target r, ...).
func planFile(args []string) bool {
	n := len(args)
	if n < 2 || strings.HasPrefix(args[n-1], "-") || strings.Contains(args[n-1], "=") || args[n-1] == "apply" {
		return false
	}
	switch strings.TrimLeft(args[n-2], "-") {
	case "var", "var-file", "target", "replace", "parallelism", "state", "state-out", "backup", "lock-timeout", "chdir":
		return false
	}
	return true
}

func (j *judge) terraform(c *shell.Cmd) {
	p := shell.Opts{}.Parse(c.Args)
	if len(p.Operands) == 0 {
		return
	}
	sub := p.Operands[0]
	if sub == "workspace" && at(p.Operands, 1) == "delete" && (p.Has("force") || slices.Contains(c.Args, "-force")) {
		j.add(c, cloudIacWorkspaceDelete, c.Name+" workspace delete discards the workspace's state: the resources stay, unmanaged", "")
		return
	}
	all := sub == "run-all" || sub == "run" && at(p.Operands, 1) == "--all"
	if all {
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
	destroy := sub == "destroy" || sub == "apply" && (p.Has("destroy") || slices.Contains(c.Args, "-destroy"))
	if sub == "apply" && !destroy {
		// run-all apply gives every module's apply -auto-approve: one prompt for the whole tree
		unattended := p.Has("auto-approve", "terragrunt-non-interactive", "non-interactive") || slices.Contains(c.Args, "-auto-approve") || all && c.Name == "terragrunt"
		// apply PLANFILE applies the plan that was shown: that is the review
		saved := planFile(c.Args)
		if unattended && !saved && (j.iacProduction(c) != "" || !devTarget(c)) {
			why := c.Name + " apply -auto-approve changes the infrastructure with no plan reviewed"
			if w := j.iacProduction(c); w != "" {
				why = c.Name + " apply changes production (" + w + ") with no plan reviewed"
			} else if all && c.Name == "terragrunt" {
				why = c.Name + " applies every module of the tree with no plan reviewed"
			}
			j.add(c, cloudIacApplyUnreviewed, why, "")
		}
		return
	}
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
	if (c.Name == "doctl" || c.Name == "heroku") && j.cloudData(c, ops) {
		return
	}
	switch {
	case c.Name == "eksctl" && len(ops) > 1 && ops[0] == "delete" && ops[1] == "cluster":
		j.add(c, cloudClusterDelete, "eksctl delete cluster deletes the cluster and everything running in it", "")
	case c.Name == "heroku" && len(ops) > 0 && (ops[0] == "apps:destroy" || ops[0] == "destroy"):
		j.add(c, cloudAppDestroy, "heroku apps:destroy deletes the app with its add-ons and data", "")
	case c.Name == "doctl" && len(ops) > 2 && ops[0] == "kubernetes" && ops[1] == "cluster" && (ops[2] == "delete" || ops[2] == "rm"):
		j.add(c, cloudClusterDelete, "doctl kubernetes cluster delete deletes the cluster and everything running in it", "")
	case c.Name == "doctl" && (slices.Contains(ops[:min(len(ops), 3)], "delete") || slices.Contains(ops[:min(len(ops), 3)], "rm")):
		j.add(c, cloudDelete, "doctl deletes "+strings.Join(ops, " "), "check what it deletes with the matching get or list command")
	}
}

// iacProduction says what aims an infrastructure tool at production ("" if nothing does): an
// argument, a variable file, a stack or workspace, or the directory it runs in
// (infra/envs/prod).
func (j *judge) iacProduction(c *shell.Cmd) string {
	if w := prodArgs(c); w != "" {
		return w
	}
	for _, a := range append(append([]string{}, c.Env...), c.Args...) {
		if _, v, ok := strings.Cut(a, "="); ok && prodWord(v) {
			return a // -var-file=envs/prod.tfvars, TF_WORKSPACE=production
		}
	}
	rel := c.Dir // inside the project, only the part below its root counts
	if j.world.Project != "" && (c.Dir == j.world.Project || strings.HasPrefix(c.Dir, j.world.Project+"/")) {
		rel = c.Dir[len(j.world.Project):]
	}
	if prodWord(rel) {
		return "in " + c.Dir
	}
	return ""
}

func (j *judge) pulumi(c *shell.Cmd) {
	if p := (shell.Opts{Short: "sC", Long: []string{"stack", "cwd", "config", "config-file", "message", "target", "parallel"}}).Parse(c.Args); (at(p.Operands, 0) == "up" || at(p.Operands, 0) == "update") && p.Has("y", "yes", "skip-preview") {
		why := "pulumi up --yes changes the stack's resources with no preview reviewed"
		if w := j.iacProduction(c); w != "" {
			why = "pulumi up --yes changes production (" + w + ") with no preview reviewed"
		} else if devTarget(c) {
			return
		}
		j.add(c, cloudIacApplyUnreviewed, why, "")
		return
	}
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
	case c.Name == "cdk" && ops[0] == "deploy" && optionValue(c.Args, "--require-approval") == "never":
		// never skips the one review cdk insists on: changes that widen IAM or network access
		j.add(c, cloudIacApplyUnreviewed, "cdk deploy --require-approval never deploys changes that widen access (IAM, security groups) with nobody approving them", "")
	case c.Name == "cdktf" && (ops[0] == "deploy" || ops[0] == "apply") && slices.Contains(c.Args, "--auto-approve") && (j.iacProduction(c) != "" || !devTarget(c)):
		j.add(c, cloudIacApplyUnreviewed, "cdktf deploy --auto-approve changes the stack's resources with no plan reviewed", "")
	case (c.Name == "cdk" || c.Name == "cdktf") && ops[0] == "destroy",
		(c.Name == "serverless" || c.Name == "sls" || c.Name == "sst") && ops[0] == "remove",
		c.Name == "amplify" && ops[0] == "delete", c.Name == "sam" && ops[0] == "delete":
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
	if j.cloudData(c, ops) {
		return
	}
	svc, op := ops[0], ops[1]
	switch {
	case svc == "s3" && op == "rm" && p.Has("recursive"):
		bucket, prefix, _ := strings.Cut(strings.TrimPrefix(at(ops, 2), "s3://"), "/")
		// A prefix in a scratch bucket (acme-dev-scratch/tmp/) is a cleanup; anything else is data.
		if strings.Trim(prefix, "/*") == "" || !scratchBucket(bucket) || prodWord(bucket) || !shell.Known(prefix) {
			j.add(c, cloudS3Delete, "aws s3 rm --recursive deletes every object under "+cmp.Or(at(ops, 2), "the prefix"), "")
		}
	case svc == "s3" && op == "rb" && p.Has("force"):
		j.add(c, cloudS3Delete, "aws s3 rb --force deletes a bucket and everything in it", "empty and remove the bucket by hand after checking it")
	case svc == "s3" && op == "sync" && p.Has("delete") && strings.HasPrefix(at(ops, 3), "s3://"):
		j.syncDelete(c, "aws s3 sync --delete", at(ops, 3))
	case svc == "s3" && op == "sync" && p.Has("delete") && strings.HasPrefix(at(ops, 2), "s3://") && at(ops, 3) != "":
		// from a bucket into a local folder: local files the bucket lacks are deleted
		j.add(c, cloudSyncDeleteLocal, "aws s3 sync --delete deletes every file of "+at(ops, 3)+" that "+at(ops, 2)+" lacks", "")
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
	if j.cloudData(c, ops) {
		return
	}
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "projects delete"):
		j.add(c, cloudDeleteCritical, "gcloud projects delete deletes a whole project and everything in it", "ask the user to delete projects themselves")
	case strings.HasPrefix(s, "container clusters delete") && len(ops) > 3:
		j.add(c, cloudClusterDelete, "gcloud container clusters delete deletes the cluster and everything running in it", "")
	case strings.HasPrefix(s, "storage rsync") && slices.Contains(c.Args, "--delete-unmatched-destination-objects") && len(ops) > 3:
		j.syncDelete(c, "gcloud storage rsync --delete-unmatched-destination-objects", ops[len(ops)-1])
	case strings.HasPrefix(s, "storage rm") && (slices.Contains(c.Args, "-r") || slices.Contains(c.Args, "--recursive")):
		j.add(c, cloudBucketDelete, "gcloud storage rm -r deletes every object under the path", "")
	case slices.Contains(ops, "delete"):
		j.add(c, cloudDelete, "gcloud "+s+" deletes cloud resources", "")
	}
}

func (j *judge) gsutil(c *shell.Cmd) {
	ops := gsutilOpts.Parse(c.Args)
	if at(ops.Operands, 0) == "rsync" && ops.Has("d") && len(ops.Operands) > 2 {
		j.syncDelete(c, "gsutil rsync -d", ops.Operands[len(ops.Operands)-1])
		return
	}
	for i, a := range ops.Operands {
		if (a == "rm" || a == "rb") && (slices.Contains(c.Args[i:], "-r") || slices.Contains(c.Args, "-R") || slices.Contains(c.Args, "-rf") || a == "rb") {
			j.add(c, cloudBucketDelete, "gsutil "+a+" -r deletes a bucket's objects wholesale", "")
			return
		}
	}
}

func (j *judge) az(c *shell.Cmd) {
	ops := azOpts.Parse(c.Args).Operands
	if j.cloudData(c, ops) {
		return
	}
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "storage blob sync") && deleteDestination(c.Args):
		v, _ := azOpts.Parse(c.Args).Value("c", "container", "destination")
		j.syncDelete(c, "az storage blob sync --delete-destination", v)
	case strings.HasPrefix(s, "group delete"):
		j.add(c, cloudDeleteCritical, "az group delete deletes a resource group and everything in it", "ask the user to delete resource groups themselves")
	case strings.HasPrefix(s, "storage table delete"):
		j.add(c, storeManagedDelete, "az storage table delete deletes a table with every entity in it, as DynamoDB's delete-table does", "")
	case strings.HasPrefix(s, "aks delete"):
		j.add(c, cloudClusterDelete, "az aks delete deletes the cluster and everything running in it", "")
	case slices.Contains(ops, "delete"):
		j.add(c, cloudDelete, "az "+s+" deletes cloud resources", "")
	}
}

// bigquery: bq rm of a dataset or table.
func (j *judge) bigquery(c *shell.Cmd) {
	p := bigqueryOpts.Parse(c.Args)
	if len(p.Operands) == 0 || p.Operands[0] != "rm" {
		return
	}
	switch {
	case p.Has("r", "recursive"):
		j.add(c, storeManagedDelete, "bq rm -r deletes a dataset with every table in it", "")
	case p.Has("d", "dataset"):
		j.add(c, cloudDelete, "bq rm -d deletes a dataset (which must be empty without -r)", "delete the table you mean")
	}
}

// syncDelete: a sync that deletes at the destination whatever the source lacks. From the wrong
// or an empty directory it empties the bucket; a target named for staging, development or
// scratch is a routine deploy.
func (j *judge) syncDelete(c *shell.Cmd, what, dest string) {
	if !shell.Known(dest) || !stagingTarget(dest) {
		j.add(c, cloudSyncDelete, what+" deletes every object of "+cmp.Or(dest, "the destination")+" that the source lacks", "")
	}
}

// devTarget reports an infrastructure change aimed at a stack, workspace, variables file or
// directory named for development, tests or staging (-s dev, envs/staging.tfvars): routine.
func devTarget(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			_, v, ok := strings.Cut(a, "=")
			if !ok {
				continue // an option's name (--skip-preview) names no target
			}
			a = v
		}
		if stagingTarget(a) {
			return true
		}
	}
	return c.Dir != "" && stagingTarget(path.Base(c.Dir))
}

// stagingTarget reports a bucket, container or remote named for staging, development, tests or
// scratch data (acme-web-staging, r2:dev-site), and not for production.
func stagingTarget(name string) bool {
	if prodWord(name) {
		return false
	}
	if scratchBucket(name) || previewStage([]string{name}) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if w == "staging" || w == "stage" || w == "stg" || w == "qa" || w == "uat" {
			return true
		}
	}
	return false
}

// deleteDestination reports azcopy's and az storage's --delete-destination set to true.
func deleteDestination(args []string) bool {
	for i, a := range args {
		if strings.EqualFold(a, "--delete-destination=true") || a == "--delete-destination" && strings.EqualFold(at(args, i+1), "true") {
			return true
		}
	}
	return false
}

// syncTool: rclone, azcopy and mc, whose sync deletes at the destination (rclone sync always;
// azcopy with --delete-destination=true; mc mirror with --remove). The hosted pack judges these programs, and calls it.
func (j *judge) syncTool(c *shell.Cmd) {
	if c.Name == "mc" {
		// MinIO's mc mirror --remove deletes at the target what the source lacks.
		p := shell.Opts{Long: []string{"exclude", "older-than", "newer-than", "storage-class", "encrypt-key", "attr", "region"}}.Parse(c.Args)
		if at(p.Operands, 0) == "mirror" && p.Has("remove") && len(p.Operands) > 2 {
			j.syncDelete(c, "mc mirror --remove", p.Operands[len(p.Operands)-1])
		}
		return
	}
	ops := shell.Opts{Long: []string{"config", "filter", "include", "exclude", "transfers", "checkers", "log-file", "log-level", "backup-dir", "bwlimit", "max-age", "min-age"}}.Parse(c.Args).Operands
	if len(ops) < 3 || ops[0] != "sync" {
		return
	}
	dest := ops[len(ops)-1]
	switch {
	case c.Name == "rclone" && rcloneRemote(dest):
		j.syncDelete(c, "rclone sync", dest)
	case c.Name == "azcopy" && deleteDestination(c.Args):
		j.syncDelete(c, "azcopy sync --delete-destination=true", dest)
	}
}

// rcloneRemote reports an rclone path on a remote (name:path), not a local one.
func rcloneRemote(p string) bool {
	i := strings.IndexByte(p, ':')
	return i > 0 && !strings.ContainsAny(p[:i], "/\\.")
}

// optionValue returns the value of a long option given as --opt=v or --opt v ("" if absent).
func optionValue(args []string, opt string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, opt+"="); ok {
			return v
		}
		if a == opt {
			return at(args, i+1)
		}
	}
	return ""
}

// serverDelete: the smaller clouds' CLIs terminating a server or instance (hcloud server delete,
// linode-cli linodes delete, vultr-cli instance delete, scw instance server delete, civo
// instance remove, railway down): what ran there and its disks are gone.
// The store pack's platformCLI calls it for the CLIs it judges too (scw, linode-cli, ...).
func (j *judge) serverDelete(c *shell.Cmd) bool {
	ops := (shell.Opts{Long: []string{"zone", "region", "context", "project", "environment", "service", "output", "o"}}).Parse(c.Args).Operands
	s := " " + strings.Join(ops, " ") + " "
	for _, w := range []string{" server delete ", " linodes delete ", " instance delete ", " instance remove ", " instance terminate ", " vm delete ",
		" compute instance delete ", " server rm ", " instance server terminate ", " instance server delete ", " services delete ", " linodes rm ", " instance rm ", " machine destroy ", " machines destroy ", " machine remove ", " machine rm ", " delete "} {
		if w == " delete " && c.Name != "nova" {
			continue // nova delete SERVER: the old OpenStack client's own verb
		}
		if strings.Contains(s, w) {
			j.add(c, cloudServerDelete, c.Name+strings.TrimRight(s[:strings.Index(s, w)+len(w)], " ")+" terminates a server with what runs on it and its disks", "")
			return true
		}
	}
	if c.Name == "railway" && at(ops, 0) == "down" {
		j.add(c, cloudServerDelete, "railway down removes the service's latest deployment", "")
		return true
	}
	return false
}
