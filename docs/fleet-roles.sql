-- Roles of least privilege for a team's or a fleet's phlegyas database (docs/FLEET.md).
-- Run as a superuser (or the database's owner) in the phlegyas database, after `phlegyas db upgrade`
-- was run as phlegyas_owner:   psql -d phlegyas -v ON_ERROR_STOP=1 -f docs/fleet-roles.sql
-- Then give each role its password (ALTER ROLE … PASSWORD) or, better, client certificates.
--
--   phlegyas_owner     owns the tables: `phlegyas db upgrade` and `phlegyas db prune` only.
--   phlegyas_agent     the machines agents run on (hook, hook server, MCP server without Slack): park a
--                      call, wait for it, give up on it (expire it); share the Tier 3 cache; send audit
--                      rows. It can NOT approve or deny: row-level security lets it move a request only
--                      from pending to expired, and it cannot change the audit trail or read its
--                      entries (it sees which machine wrote which positions: ON CONFLICT needs that).
--   phlegyas_approver  the people's side (phlegyas pending/approve/deny, the dashboard, the process that
--                      holds the Slack app): everything an agent may do, plus resolving requests and
--                      reading the fleet's audit trail.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'phlegyas_agent') THEN
        CREATE ROLE phlegyas_agent LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'phlegyas_approver') THEN
        CREATE ROLE phlegyas_approver LOGIN;
    END IF;
END
$$;

GRANT SELECT ON phlegyas_meta TO phlegyas_agent, phlegyas_approver;

-- requests: agents insert and read, and update only to expire (their own give-up); approvers resolve
GRANT SELECT, INSERT, UPDATE, DELETE ON phlegyas_requests TO phlegyas_agent, phlegyas_approver;
ALTER TABLE phlegyas_requests ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS agent_reads ON phlegyas_requests;
DROP POLICY IF EXISTS agent_parks ON phlegyas_requests;
DROP POLICY IF EXISTS agent_expires ON phlegyas_requests;
DROP POLICY IF EXISTS agent_purges ON phlegyas_requests;
DROP POLICY IF EXISTS approver_all ON phlegyas_requests;
CREATE POLICY agent_reads ON phlegyas_requests FOR SELECT TO phlegyas_agent USING (true);
CREATE POLICY agent_parks ON phlegyas_requests FOR INSERT TO phlegyas_agent
    WITH CHECK (status = 'pending' AND approver_id IS NULL AND resolved_at IS NULL);
CREATE POLICY agent_expires ON phlegyas_requests FOR UPDATE TO phlegyas_agent
    USING (status = 'pending') WITH CHECK (status = 'expired' AND approver_id IS NULL);
-- the retention purge of finished requests (a week old) when a new one is parked
CREATE POLICY agent_purges ON phlegyas_requests FOR DELETE TO phlegyas_agent USING (status <> 'pending'
    OR expires_at < extract(epoch FROM now()));
CREATE POLICY approver_all ON phlegyas_requests FOR ALL TO phlegyas_approver USING (true) WITH CHECK (true);

-- notices (where a request is shown in Slack): whoever posts or settles a message
GRANT SELECT, INSERT, UPDATE, DELETE ON phlegyas_notices TO phlegyas_agent, phlegyas_approver;

-- the Tier 3 cache: shared by every machine
GRANT SELECT, INSERT, UPDATE, DELETE ON phlegyas_cache TO phlegyas_agent, phlegyas_approver;

-- the audit trail: machines only add to it; approvers (the dashboard) read it; only the owner prunes
GRANT INSERT ON phlegyas_audit TO phlegyas_agent, phlegyas_approver;
GRANT SELECT (machine, source, position) ON phlegyas_audit TO phlegyas_agent;  -- ON CONFLICT DO NOTHING needs it
GRANT SELECT ON phlegyas_audit TO phlegyas_approver;
GRANT USAGE ON SEQUENCE phlegyas_audit_id_seq TO phlegyas_agent, phlegyas_approver;
