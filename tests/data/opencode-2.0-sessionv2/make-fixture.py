#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes opencode.db: an OpenCode 2.0.x database as its schema and migration are publicly
described (see README.md), built from those facts, not written by OpenCode. Run from this folder:
    python3 make-fixture.py
"""
import json
import os
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, '..', 'opencode-schema', 'opencode-1.18.34-schema.sql')
OUT = os.path.join(HERE, 'opencode.db')

# OpenCode 2.0.x: V2 session metadata in `session_v2` (the legacy V1 `session` table stays),
# `session_message` rows refer to it; `event` gained `created`.
SESSION_V2 = """CREATE TABLE `session_v2` (`id` text PRIMARY KEY, `project_id` text NOT NULL,
 `workspace_id` text, `parent_id` text, `fork_session_id` text, `fork_boundary` text,
 `slug` text NOT NULL, `directory` text NOT NULL, `path` text, `title` text, `version` text NOT NULL,
 `share_url` text, `summary_additions` integer, `summary_deletions` integer, `summary_files` integer,
 `summary_diffs` text, `metadata` text, `cost` real DEFAULT 0 NOT NULL,
 `tokens_input` integer DEFAULT 0 NOT NULL, `tokens_output` integer DEFAULT 0 NOT NULL,
 `tokens_reasoning` integer DEFAULT 0 NOT NULL, `tokens_cache_read` integer DEFAULT 0 NOT NULL,
 `tokens_cache_write` integer DEFAULT 0 NOT NULL, `revert` text, `permission` text, `agent` text,
 `model` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_idle` integer,
 `time_viewed` integer, `idle_outcome` text, `time_compacting` integer, `time_archived` integer,
 `time_suspended` integer, `resume_attempts` integer DEFAULT 0 NOT NULL)"""
EVENT = """CREATE TABLE `event` (`id` text PRIMARY KEY, `aggregate_id` text NOT NULL,
 `seq` integer NOT NULL, `created` integer DEFAULT 0 NOT NULL, `type` text NOT NULL,
 `data` text NOT NULL)"""
KV = """CREATE TABLE IF NOT EXISTS `kv` (`key` text PRIMARY KEY, `value` text NOT NULL,
 `time_created` integer NOT NULL, `time_updated` integer NOT NULL)"""

DIR = '/home/dev/src/demo'
PROJECT = 'prj_demo'
T = 1790000000000
MODEL = {'id': 'm1', 'providerID': 'fake'}


def main():
    if os.path.exists(OUT):
        os.remove(OUT)
    db = sqlite3.connect(OUT)
    db.executescript(open(SCHEMA, encoding='utf-8').read())
    db.execute('DROP TABLE `event`')
    db.execute(EVENT)
    db.execute(SESSION_V2)
    db.execute(KV)
    db.execute("INSERT INTO project (id, worktree, vcs, name, time_created, time_updated, sandboxes) "
               "VALUES (?, ?, 'git', 'demo', ?, ?, '[]')", (PROJECT, DIR, T, T))

    def v1_session(sid, title, t):
        db.execute("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) "
                   "VALUES (?, ?, ?, ?, ?, '1.18.34', ?, ?)", (sid, PROJECT, sid[-6:], DIR, title, t, t + 500))
        user = {'role': 'user', 'time': {'created': t}, 'agent': 'build', 'model': {'providerID': 'fake', 'modelID': 'm1'}}
        db.execute('INSERT INTO message VALUES (?, ?, ?, ?, ?)', ('msg_' + sid[4:], sid, t, t, json.dumps(user)))
        db.execute('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', ('prt_' + sid[4:], 'msg_' + sid[4:], sid, t, t,
                                                               json.dumps({'type': 'text', 'text': title + ' (V1 rows)'})))

    def v2_session(sid, title, t, version='2.0.25'):
        db.execute("INSERT INTO session_v2 (id, project_id, slug, directory, path, title, version, agent, model, "
                   "tokens_input, tokens_output, time_created, time_updated, idle_outcome) "
                   "VALUES (?, ?, ?, ?, '', ?, ?, 'build', ?, 30, 5, ?, ?, 'succeeded')",
                   (sid, PROJECT, sid[-6:], DIR, title, version, json.dumps(MODEL), t, t + 900))

    def row(sid, mid, kind, seq, t, data):
        db.execute('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)', (mid, sid, kind, seq, t, t, json.dumps(data)))

    # 1. A V1 session that the migration copied: its legacy rows stay, session_v2 has the copy.
    v1_session('ses_1000000000000migratedAAAAA', 'Migrated (legacy title)', T)
    v2_session('ses_1000000000000migratedAAAAA', 'Migrated', T)
    row('ses_1000000000000migratedAAAAA', 'msg_1000000000001migratedUSRxx', 'user', 1, T, {'time': {'created': T}, 'text': 'Migrated (V2 rows)'})
    # 2. A session of OpenCode 2, with its 2.x tool names (shell, subagent; read takes path).
    v2_session('ses_2000000000000nativeV2BBBBB', 'Native V2', T + 10000)
    row('ses_2000000000000nativeV2BBBBB', 'msg_2000000000001nativeV2USRxx', 'user', 1, T + 10000,
        {'time': {'created': T + 10000}, 'text': 'run the tests'})
    row('ses_2000000000000nativeV2BBBBB', 'msg_2000000000002nativeV2ASTxx', 'assistant', 2, T + 10100,
        {'time': {'created': T + 10100, 'completed': T + 10400}, 'agent': 'build', 'model': MODEL,
         'content': [
             {'type': 'tool', 'id': 'call_1', 'name': 'shell', 'executed': False,
              'state': {'status': 'completed', 'input': {'command': 'make test'},
                        'content': [{'type': 'text', 'text': 'all 12 tests passed'}]}},
             {'type': 'tool', 'id': 'call_2', 'name': 'read', 'executed': False,
              'state': {'status': 'completed', 'input': {'path': 'src/main.c'},
                        'content': [{'type': 'text', 'text': 'int main(void) { return 0; }'}]}},
             {'type': 'tool', 'id': 'call_3', 'name': 'subagent', 'executed': False,
              'state': {'status': 'completed', 'input': {'description': 'Review the change', 'prompt': 'review', 'agent': 'general'},
                        'content': [{'type': 'text', 'text': 'looks good'}]}},
             {'type': 'text', 'text': 'Tests pass.'}],
         'finish': 'stop', 'cost': 0.001, 'tokens': {'input': 30, 'output': 5, 'reasoning': 0, 'cache': {'read': 0, 'write': 0}}})
    # 3. A V1 session written (by OpenCode 1.18) after the migration had completed: skipped.
    v1_session('ses_3000000000000skippedV1CCCC', 'Skipped by the migration', T + 20000)
    # 4. A V2 session whose session_message rows are gone, with its events in the log.
    v2_session('ses_4000000000000eventsOnlyDDD', 'Events only', T + 30000)
    sid = 'ses_4000000000000eventsOnlyDDD'
    events = [
        ('session.created.1', {'sessionID': sid}),
        ('session.input.admitted.1', {'sessionID': sid, 'inputID': 'msg_4000000000001eventsOnUSRxx',
                                      'input': {'type': 'user', 'data': {'text': 'list the files'}, 'delivery': 'steer'}}),
        ('session.execution.started.1', {'sessionID': sid}),
        ('session.step.started.1', {'sessionID': sid, 'assistantMessageID': 'msg_4000000000002eventsOnASTxx',
                                    'agent': 'build', 'model': MODEL, 'snapshot': 'aaaa'}),
        ('session.tool.input.started.1', {'sessionID': sid, 'assistantMessageID': 'msg_4000000000002eventsOnASTxx',
                                          'callID': 'call_9', 'name': 'shell'}),
        ('session.tool.called.1', {'sessionID': sid, 'assistantMessageID': 'msg_4000000000002eventsOnASTxx',
                                   'callID': 'call_9', 'input': {'command': 'ls'}, 'executed': False}),
        ('session.tool.success.2', {'sessionID': sid, 'assistantMessageID': 'msg_4000000000002eventsOnASTxx',
                                    'callID': 'call_9', 'content': [{'type': 'text', 'text': 'Makefile\nsrc'}]}),
        ('session.text.ended.1', {'sessionID': sid, 'assistantMessageID': 'msg_4000000000002eventsOnASTxx',
                                  'ordinal': 0, 'text': 'Two entries.'}),
        ('session.step.ended.1', {'sessionID': sid, 'assistantMessageID': 'msg_4000000000002eventsOnASTxx',
                                  'finish': 'stop', 'cost': 0, 'snapshot': 'bbbb', 'files': [],
                                  'tokens': {'input': 20, 'output': 4, 'reasoning': 0, 'cache': {'read': 0, 'write': 0}}}),
        ('session.execution.succeeded.1', {'sessionID': sid}),
    ]
    db.execute('INSERT INTO event_sequence VALUES (?, ?, NULL)', (sid, len(events) - 1))
    for seq, (kind, data) in enumerate(events):
        db.execute('INSERT INTO event VALUES (?, ?, ?, ?, ?, ?)', ('evt_%02d' % seq, sid, seq, T + 30000 + seq * 10, kind, json.dumps(data)))
    db.execute("INSERT INTO kv VALUES ('migration.v1-v2', ?, ?, ?)", (json.dumps({'phase': 'completed'}), T + 5000, T + 5000))
    db.commit()
    db.execute('VACUUM')
    db.close()


if __name__ == '__main__':
    main()
