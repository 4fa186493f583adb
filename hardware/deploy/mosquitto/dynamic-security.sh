#!/bin/sh
# The same rules as tableside.acl, for Mosquitto's dynamic-security plugin
# (`plugin /usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so` and
# `plugin_opt_config_file …/dynamic-security.json` in mosquitto.conf; create
# the admin with `mosquitto_ctrl dynsec init`). Run against the live broker:
#   ADMIN="-h broker -u admin -P secret" sh dynamic-security.sh
# Each new client's password is asked for, or read from PASSWORDS_FILE
# (lines "username password", mode 600) when that is set.
set -eu
ctrl() { mosquitto_ctrl ${ADMIN:-} dynsec "$@"; }
client() {
  if [ -n "${PASSWORDS_FILE:-}" ]; then
    ctrl createClient "$1" -p "$(awk -v u="$1" '$1 == u { print $2 }' "$PASSWORDS_FILE")"
  else
    ctrl createClient "$1"
  fi
}

# Anonymous clients get nothing: no default role.
ctrl setDefaultACLAccess publishClientSend deny
ctrl setDefaultACLAccess publishClientReceive deny
ctrl setDefaultACLAccess subscribe deny
ctrl setDefaultACLAccess unsubscribe allow

# One role per table: publishes and reads under its own table only.
for table in t1 t2; do
  ctrl createRole "table-$table"
  ctrl addRoleACL "table-$table" publishClientSend "tableside/$table/#" allow
  ctrl addRoleACL "table-$table" publishClientReceive "tableside/$table/#" allow
  ctrl addRoleACL "table-$table" subscribePattern "tableside/$table/#" allow
  client "table-$table"
  ctrl addClientRole "table-$table" "table-$table"
done

# Consumers read everything of every table, publish nothing.
ctrl createRole consumer
ctrl addRoleACL consumer subscribePattern "tableside/#" allow
ctrl addRoleACL consumer publishClientReceive "tableside/#" allow
client consumer-pit
ctrl addClientRole consumer-pit consumer

# Supervisors read, and publish requests (which the daemon still checks for a signature).
ctrl createRole supervisor
ctrl addRoleACL supervisor subscribePattern "tableside/#" allow
ctrl addRoleACL supervisor publishClientReceive "tableside/#" allow
ctrl addRoleACL supervisor publishClientSend "tableside/+/bridge/request/+" allow
client supervisor-pit
ctrl addClientRole supervisor-pit supervisor
