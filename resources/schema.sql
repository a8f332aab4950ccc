-- SPDX-License-Identifier: Apache-2.0
-- npuscope in-memory model. One database per opened workspace.
-- Conventions: every time point and duration is INTEGER nanoseconds (epoch ns for time points);
-- a value absent from the input files is NULL, never 0. Sizes keep the unit of the source
-- (KB / MB = 2^10 / 2^20 bytes as the Ascend tools compute them: 1522532352 B is written 1452.0 MB)
-- and say so in the column name.
-- Secondary indexes are created after bulk load by Database::createIndexes (src/model/Database.cpp).

-- Interned strings shared by the large tables (slice names, categories, kernel names).
CREATE TABLE string (
  id    INTEGER PRIMARY KEY, -- string id referenced by *_id columns
  value TEXT NOT NULL        -- the string itself
);

-- One row per rank the load plan found.
CREATE TABLE rank (
  rank_id    INTEGER PRIMARY KEY, -- global rank id (profiler_info_{rank}.json name, else rank_id field, else folder name)
  device_id  INTEGER,             -- NPU device id when known (Device_id column, Device Type NPU:<n>), else NULL
  path       TEXT NOT NULL,       -- the rank folder (the *_ascend_pt / *_ascend_ms folder or ASCEND_PROFILER_OUTPUT parent)
  rank_source TEXT NOT NULL,      -- where the rank id came from: file_name | rank_id_field | folder_name | default | cluster_analysis
                                  -- | device_id (one rank per device of a several-device analysis db without rank ids)
  host       TEXT,                -- host name / mapping id when known
  framework  TEXT,                -- torch_npu | mindspore | unknown
  profiler_level TEXT,            -- Level0 / Level1 / Level2 from profiler_info experimental_config, else NULL
  export_type TEXT,               -- text / db as configured, else NULL
  version    TEXT,                -- torch_npu / MindSpore version when the files say it
  cann_version TEXT,              -- CANN version when the files say it
  collection_end_ns INTEGER,      -- profiler_info end_info.collectionTimeEnd (epoch ns)
  world_size INTEGER              -- distributed_args.world_size when present
);

-- Every input file the load plan assigned to a rank, and whether it was imported.
CREATE TABLE rank_file (
  rank_id  INTEGER NOT NULL, -- rank.rank_id
  kind     TEXT NOT NULL,    -- file kind: step_trace_time, kernel_details, trace_view, profiler_db, analysis_db, ...
  path     TEXT NOT NULL,    -- absolute path of the file
  size_bytes INTEGER,        -- file size at load time
  status   TEXT NOT NULL     -- skipped (deferred, not imported yet) | loading (claimed by a running deferred import)
                             -- | loaded | failed | planned (a worker's row before its import ends); RankFileStatus
);

-- Key/value facts about a rank that have no column of their own (profiler_info config, distributed_args).
CREATE TABLE rank_info (
  rank_id INTEGER NOT NULL, -- rank.rank_id
  key     TEXT NOT NULL,    -- dotted key, e.g. distributed_args.tensor_model_parallel_size
  value   TEXT              -- value as text (JSON scalars unquoted)
);

-- profiler_metadata.json parallel_group_info (or a db export's META_DATA parallel_group_info), parsed at import:
-- one row per entry each rank lists, in the order read. PostLoad builds comm_group / comm_group_rank from them.
CREATE TABLE parallel_group (
  rank_id  INTEGER NOT NULL,  -- rank.rank_id whose metadata lists the entry
  raw_name TEXT NOT NULL,     -- the entry's key: the raw group id, whose double hash is the '@' number of op names
  name     TEXT,              -- group_name when it is a string, else NULL
  global_ranks TEXT NOT NULL  -- the integer elements of global_ranks ascending, comma separated ('' for none);
                              -- local rank i of the group is the i-th
);

-- One row per (rank, step) from step_trace_time.csv. Durations in ns; NULL when the column is absent.
CREATE TABLE step_trace (
  rank_id   INTEGER NOT NULL, -- rank.rank_id
  device_id INTEGER,          -- Device_id column (multi-device builds), else NULL
  step      INTEGER,          -- Step column; NULL when empty
  computing_ns INTEGER,                          -- Computing
  communication_not_overlapped_ns INTEGER,       -- Communication(Not Overlapped)
  overlapped_ns INTEGER,                         -- Overlapped (computing overlapped by communication)
  communication_ns INTEGER,                      -- Communication = Not Overlapped + Overlapped
  free_ns INTEGER,                               -- Free (device idle)
  stage_ns INTEGER,                              -- Stage
  bubble_ns INTEGER,                             -- Bubble (pipeline receive wait)
  communication_not_overlapped_exclude_receive_ns INTEGER, -- Communication(Not Overlapped and Exclude Receive)
  preparing_ns INTEGER,                          -- Preparing (absent in 2023 builds -> NULL)
  source_line INTEGER,                           -- 1-based line in the CSV (row number for db exports)
  -- Old MindSpore step_trace_raw_{id}_detail_time.csv (10 ns ticks); NULL for every other source:
  total_ns INTEGER,                              -- total (iteration end - previous iteration end)
  iteration_interval_ns INTEGER,                 -- iteration_interval (previous end -> fp start)
  fp_bp_ns INTEGER,                              -- fp_and_bp (fp start -> bp end)
  tail_ns INTEGER                                -- tail (bp end -> iteration end)
);

-- Old MindSpore step_trace_raw_{id}_detail_time.csv per-op columns: one row per (rank, step, op / parallel stream)
-- triple, in either column order ("<op>,<op>_start_point,<op>_end_point" or "<op>_start_point,<op>_end_point,<op>").
CREATE TABLE step_trace_op (
  rank_id   INTEGER NOT NULL, -- rank.rank_id
  step      INTEGER NOT NULL, -- step_num
  column_name TEXT NOT NULL,  -- the triple's name as written, e.g. stream_48_0_Receive-op663, stream_10_parallel_0
  stream_id INTEGER,          -- <streamId> of stream_<streamId>_..., NULL when the name has none
  op_type   TEXT,             -- Receive / Send / AllReduce ... from "<OpType>-op<N>", NULL for parallel-stream columns
  start_syscnt_ns INTEGER,    -- <op>_start_point x 10 ns: device syscnt time, NOT epoch (no epoch anchor in the file)
  end_syscnt_ns INTEGER,      -- <op>_end_point x 10 ns, same clock
  dur       INTEGER           -- the duration column x 10 ns
);

-- msprof-analyze cluster_step_trace_time.csv / ClusterStepTraceTime rows of Type "stage": per step and pipeline stage
-- (the ranks of one p2p group of communication_group.json), the column-wise MAXIMUM of that stage's rank rows, as
-- msprof-analyze computes them. Durations in ns (the file's µs); NULL when the column is absent.
CREATE TABLE cluster_stage_step (
  step      INTEGER,          -- Step column; NULL when empty
  stage_index INTEGER NOT NULL, -- 0-based stage number: the distinct rank sets ordered by their lowest rank ("()" last)
  ranks     TEXT NOT NULL,    -- the Index rank tuple as ascending comma-separated global ranks ("0,1,2,3"); '' for "()"
  computing_ns INTEGER,                          -- Computing (max over the stage's ranks)
  communication_not_overlapped_ns INTEGER,       -- Communication(Not Overlapped)
  overlapped_ns INTEGER,                         -- Overlapped
  communication_ns INTEGER,                      -- Communication
  free_ns INTEGER,                               -- Free
  stage_ns INTEGER,                              -- Stage
  bubble_ns INTEGER,                             -- Bubble
  communication_not_overlapped_exclude_receive_ns INTEGER, -- Communication(Not Overlapped and Exclude Receive)
  preparing_ns INTEGER,                          -- Preparing (absent in the samples -> NULL)
  source_line INTEGER                            -- 1-based line in the CSV (row number for cluster_analysis.db)
);

-- Device tasks from kernel_details.csv. Columns located by header name; PMU columns that differ
-- between aic_metrics settings are kept as a JSON object in pmu_json.
CREATE TABLE kernel (
  rank_id   INTEGER NOT NULL, -- rank.rank_id
  device_id INTEGER,          -- Device_id column when present
  step      INTEGER,          -- Step Id
  model_id  INTEGER,          -- Model ID (4294967295 = none)
  task_id   INTEGER,          -- Task ID (NULL for N/A, e.g. communication rows)
  stream_id INTEGER,          -- Stream ID
  name_id   INTEGER NOT NULL, -- string.id of Name (CANN op_summary_*.csv: Op Name)
  type_id   INTEGER,          -- string.id of Type (op_summary: OP Type)
  op_state  TEXT,             -- OP State (dynamic/static) when present
  accelerator_core TEXT,      -- AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, HCCL, COMMUNICATION, ... (op_summary: Task Type)
  ts        INTEGER NOT NULL, -- Start Time(us) as epoch ns
  dur       INTEGER NOT NULL, -- Duration(us) (op_summary: Task Duration(us)) as ns
  wait_ns   INTEGER,          -- Wait Time(us) (op_summary: Task Wait Time(us)) as ns
  block_dim INTEGER,          -- Block Dim
  mix_block_dim INTEGER,      -- Mix Block Dim
  input_shapes TEXT,          -- Input Shapes (quotes stripped)
  input_data_types TEXT,      -- Input Data Types
  output_shapes TEXT,         -- Output Shapes
  output_data_types TEXT,     -- Output Data Types
  pmu_json  TEXT,             -- remaining columns {header: number|string}: .db exports (TASK_PMU_INFO); NULL for CSVs
  flops     REAL,             -- aic_cube_fops + aic_vector_fops + aiv_cube_fops + aiv_vector_fops (the present ones):
                              -- floating-point operations of the task; NULL when the run recorded none
                              -- (aic_metrics other than ArithmeticUtilization)
  source_line INTEGER,        -- 1-based line in the CSV
  -- CSV sources keep the remaining columns by reference (the record's bytes in the file), read back on demand by
  -- load::SourceDetails::kernelPmu: most of a kernel_details.csv's bytes are PMU counters no cluster view needs.
  pmu_file_id INTEGER,        -- source_file.id of the CSV (its size and mtime at import), NULL without extra columns
  pmu_offset INTEGER,         -- byte offset of the record in the file
  pmu_len   INTEGER           -- byte length of the record (line end included)
);

-- op_statistic.csv: per op type totals on the device.
CREATE TABLE op_statistic (
  rank_id INTEGER NOT NULL, device_id INTEGER, -- rank; Device_id when present
  op_type TEXT NOT NULL,   -- OP Type
  core_type TEXT,          -- Core Type
  count INTEGER,           -- Count
  total_ns INTEGER, min_ns INTEGER, avg_ns INTEGER, max_ns INTEGER, -- Total/Min/Avg/Max Time(us) as ns
  ratio_pct REAL           -- Ratio(%)
);

-- api_statistic.csv: host API totals.
CREATE TABLE api_statistic (
  rank_id INTEGER NOT NULL, device_id TEXT, -- rank; Device_id (may be "host")
  level TEXT,              -- acl, runtime, hccl, node, communication
  api_name TEXT NOT NULL,  -- API Name
  total_ns INTEGER, count INTEGER, avg_ns INTEGER, min_ns INTEGER, max_ns INTEGER, -- Time/Avg/Min/Max(us) as ns
  variance REAL            -- Variance (us^2, as written)
);

-- Communication groups: the @<hash> suffix of op keys, with the global ranks when known.
CREATE TABLE comm_group (
  group_hash TEXT PRIMARY KEY, -- decimal uint64 double_hash(raw group name), as written after '@'
  raw_name   TEXT,             -- raw HCCL group id (parallel_group_info key) when known
  name       TEXT,             -- readable name (pp, tp, dp, default_group, ...) when known, else NULL
  ranks_source TEXT NOT NULL   -- metadata | communication_group.json | cluster_analysis.db (msprof-analyze group list) | self_link | self_link_identity | unknown: how comm_group_rank was derived
);

-- Members of a group: local rank inside the group -> global rank.
CREATE TABLE comm_group_rank (
  group_hash  TEXT NOT NULL,    -- comm_group.group_hash
  local_rank  INTEGER NOT NULL, -- rank index inside the group (as used in link keys)
  global_rank INTEGER NOT NULL  -- global rank id
);

-- msprof-analyze communication_group.json (or cluster_analysis.db CommunicationGroup): the cluster's communication
-- groups as listed, one row per distinct group. With comm_group_parallel_info (newer builds) one row per entry, keyed
-- by its hash; rank sets of the "collective"/"p2p" lists that no entry of the same kind covers, and every list entry of
-- older builds, are kept once per (kind, ranks). PostLoad turns rows with a hash into comm_group / comm_group_rank.
CREATE TABLE cluster_comm_group (
  kind       TEXT NOT NULL, -- collective | p2p
  group_hash TEXT,          -- group_name of comm_group_parallel_info: decimal double_hash as after '@'; NULL when absent/empty
  raw_name   TEXT,          -- group_id (raw HCCL group id) when present and non-empty
  name       TEXT,          -- pg_name (tp, pp, dp, dp_cp, default_group, ...) when present and non-empty
  ranks      TEXT NOT NULL, -- global ranks, ascending, comma separated ("0,1,4,5")
  source     TEXT NOT NULL  -- communication_group.json | cluster_analysis.db
);

-- communication.json: one row per (rank, step, op) including the "Total Op Info" row.
CREATE TABLE comm_op (
  id        INTEGER PRIMARY KEY, -- row id referenced by comm_bandwidth
  rank_id   INTEGER NOT NULL,    -- rank that wrote the file
  step      INTEGER,             -- N of the "step<N>" key; NULL if the key has no number
  kind      TEXT NOT NULL,       -- p2p | collective
  op_key    TEXT NOT NULL,       -- full key, e.g. hcom_allReduce__586_0_1@17522688603477080586, or "Total Op Info"
  op_name   TEXT NOT NULL,       -- key without the @hash suffix
  op_type   TEXT,                -- e.g. allReduce (from hcom_<type>__...), NULL for Total
  group_hash TEXT,               -- the number after '@', NULL when absent
  is_total  INTEGER NOT NULL,    -- 1 for "Total Op Info"
  start_ns  INTEGER,             -- Start Timestamp(us) as epoch ns (NULL for Total)
  elapse_ns INTEGER,             -- Elapse Time(ms)
  transit_ns INTEGER,            -- Transit Time(ms)
  wait_ns   INTEGER,             -- Wait Time(ms)
  sync_ns   INTEGER,             -- Synchronization Time(ms)
  idle_ns   INTEGER,             -- Idle Time(ms)
  wait_ratio REAL,               -- Wait Time Ratio as written
  sync_ratio REAL,               -- Synchronization Time Ratio as written
  zero_transports TEXT           -- transports listed with all figures 0 and no packets ("HCCS,PCIE,SDMA,SIO"), which
                                 -- have no comm_bandwidth row; NULL when none
);

-- communication.json "Communication Bandwidth Info": one row per op and transport (text exports: per transport that
-- has a non-zero figure or packets; the others are named in comm_op.zero_transports).
CREATE TABLE comm_bandwidth (
  id         INTEGER PRIMARY KEY, -- row id referenced by comm_packet
  comm_op_id INTEGER NOT NULL,    -- comm_op.id
  transport  TEXT NOT NULL,       -- RDMA | HCCS | PCIE | SDMA | SIO | ...
  size_mb    REAL,                -- Transit Size(MB)
  transit_ns INTEGER,             -- Transit Time(ms)
  bandwidth_gbps REAL,            -- Bandwidth(GB/s) as written (NULL in Total rows)
  large_packet_ratio REAL         -- Large Packet Ratio (NULL in Total rows)
);

-- Size Distribution entries of comm_bandwidth.
CREATE TABLE comm_packet (
  comm_bandwidth_id INTEGER NOT NULL, -- comm_bandwidth.id
  package_mb REAL NOT NULL,           -- package size in MB (the key)
  count      INTEGER,                 -- number of packets of that size
  total_ns   INTEGER                  -- total duration of those packets
);

-- communication_matrix.json ops: what the links of one op key of one rank's file share (comm_link_row holds the
-- links, the view comm_link joins both).
CREATE TABLE comm_link_op (
  id        INTEGER PRIMARY KEY, -- referenced by comm_link_row.op_id
  rank_id   INTEGER NOT NULL, -- rank whose file holds the links
  step      INTEGER,          -- N of "step<N>"
  kind      TEXT NOT NULL,    -- p2p | collective
  matrix_op TEXT NOT NULL,    -- op key without @hash: "allreduce-top1", "allreduce-total", or a real op name (2023 builds), "Total Op Info"
  op_type   TEXT,             -- allreduce, allgather, ... (lower case) when known
  slot      TEXT,             -- top1 | middle | bottom1.. | total, NULL for real-op keys
  group_hash TEXT,            -- number after '@', NULL when absent
  first_row INTEGER,          -- comm_link_row.id of the op's first link (its links are ids first_row..last_row)
  last_row  INTEGER           -- comm_link_row.id of the op's last link
);

-- Op names of links ("Op Name" of a matrix link), one row per distinct name and import (a name imported twice may
-- have two ids; nothing looks a name up by value).
CREATE TABLE comm_link_name (
  id    INTEGER PRIMARY KEY, -- referenced by comm_link_row.op_name_id
  value TEXT NOT NULL        -- Op Name as written
);

-- communication_matrix.json links, with group-local ranks mapped to global ranks: one narrow row per link, in file
-- order, without repeated strings.
CREATE TABLE comm_link_row (
  id        INTEGER PRIMARY KEY, -- file order; the links of one op are consecutive (comm_link_op.first_row..last_row)
  op_id     INTEGER NOT NULL, -- comm_link_op.id
  local_src INTEGER,          -- src as written (local rank in the group)
  local_dst INTEGER,          -- dst as written
  src       INTEGER,          -- global src rank, NULL when the group membership is unknown
  dst       INTEGER,          -- global dst rank, NULL when unknown
  transport TEXT,             -- Transport Type: LOCAL | HCCS | SDMA | RDMA | PCIE | SIO
  size_mb   REAL,             -- Transit Size(MB)
  time_ns   INTEGER,          -- Transit Time(ms)
  bandwidth_gbps REAL,        -- Bandwidth(GB/s)
  op_name_id INTEGER          -- comm_link_name.id of Op Name (concrete op for non-total slots), NULL when absent
);

-- The links as one relation (what every query reads): comm_link_row joined to its op and op name; link_op and
-- link_seq give the file order. The row id range lets a query that starts from ops (a step, a group) read their
-- links without an index on op_id.
CREATE VIEW comm_link AS
  SELECT o.rank_id, o.step, o.kind, o.matrix_op, o.op_type, o.slot, o.group_hash, r.local_src, r.local_dst, r.src,
         r.dst, r.transport, r.size_mb, r.time_ns, r.bandwidth_gbps, n.value AS op_name, r.op_id AS link_op,
         r.id AS link_seq
  FROM comm_link_op o JOIN comm_link_row r ON r.id BETWEEN o.first_row AND o.last_row AND r.op_id = o.id
  LEFT JOIN comm_link_name n ON n.id = r.op_name_id;

-- memory_record.csv. Db exports: MEMORY_RECORD (bytes -> MB) plus the NPU_MEM "app" samples as APP rows
-- (reserved_mb = DDR + HBM), as the CSV has them.
CREATE TABLE memory_record (
  rank_id INTEGER NOT NULL, -- rank
  component TEXT,           -- APP | PTA | GE | PTA+GE
  ts INTEGER NOT NULL,      -- Timestamp(us) as epoch ns
  allocated_mb REAL,        -- Total Allocated(MB)
  reserved_mb REAL,         -- Total Reserved(MB)
  active_mb REAL,           -- Total Active(MB)
  stream_ptr TEXT,          -- Stream Ptr
  device TEXT               -- Device Type, e.g. NPU:0
);

-- Per rank and component, the memory peaks memory_query reads (docs/metrics.md, "Memory peak"), written while the
-- summary is loaded so the cluster memory heatmap needs no memory_record row: memory_record.csv is streamed in a
-- peaks-only pass (its rows are imported later, with the rank's Memory group), a db export's MEMORY_RECORD is
-- aggregated while its rows are imported. Same rows and rule as over memory_record: a row counts when the value
-- is not NULL; the earliest sample of the largest value.
CREATE TABLE memory_peak (
  rank_id INTEGER NOT NULL,  -- rank
  component TEXT,            -- APP | PTA | GE | PTA+GE (memory_record.component)
  peak_reserved_mb REAL,     -- MAX(reserved_mb); NULL when no sample has one
  reserved_ts INTEGER,       -- epoch ns of the earliest sample with that value
  peak_allocated_mb REAL,    -- MAX(allocated_mb); NULL when no sample has one
  allocated_ts INTEGER,      -- epoch ns of the earliest sample with that value
  samples INTEGER NOT NULL,  -- memory_record rows of this rank and component
  device TEXT                -- the first "NPU:<n>" Device Type of the file (any component), for the rank's device
);

-- Per rank and step, kernel totals for the FLOPs heatmap (query::FlopsQuery) of a rank whose kernel table is not
-- imported: one streaming pass over kernel_details.csv / op_summary reading only Step Id, Duration and the *_fops
-- columns (load::Loader::loadKernelTotals, cached per rank). Equal to the same sums over the kernel table.
CREATE TABLE kernel_total (
  rank_id INTEGER NOT NULL,  -- rank
  step INTEGER,              -- Step Id (NULL without a schedule)
  kernels INTEGER NOT NULL,  -- kernel rows
  flops_kernels INTEGER NOT NULL, -- rows with a FLOPs count (COUNT(kernel.flops))
  flops REAL NOT NULL,       -- TOTAL(kernel.flops)
  flops_dur_ns INTEGER NOT NULL -- Σ dur of the rows with a FLOPs count
);

-- Per rank, the kernels of ONE step (the Marey view's operators) of a rank whose kernel table is not imported: one
-- streaming pass over kernel_details.csv / op_summary with the same required cells and parse issues as the kernel
-- import, keeping the rows of that step only (load::Loader::loadStepKernels, one parse cache entry per set of ranks
-- and step). Rows in file order; dropped when the rank's Kernels group is imported (the kernel table has them then).
CREATE TABLE step_kernel (
  rank_id INTEGER NOT NULL,  -- rank
  step INTEGER,              -- Step Id (NULL without a schedule: then every row of the file)
  name_id INTEGER NOT NULL,  -- string.id of Name (op_summary: Op Name)
  type_id INTEGER,           -- string.id of Type (op_summary: OP Type)
  accelerator_core TEXT,     -- Accelerator Core (op_summary: Task Type)
  ts INTEGER NOT NULL,       -- Start Time(us) as epoch ns
  dur INTEGER NOT NULL,      -- Duration(us) as ns
  flops REAL                 -- Σ of the *_fops cells as kernel.flops; NULL when the run recorded none
);

-- Per rank, step and kernel key (name, type, accelerator core), the count and Σ duration of the kernels of a rank
-- whose kernel table is not imported: one streaming pass over kernel_details.csv / op_summary with the same required
-- cells and parse issues as the kernel import (load::Loader::loadKernelSums, one parse cache entry per set of ranks),
-- for the operator level of a comparison (query::RunComparison) without every kernel row. Dropped when the rank's
-- Kernels group is imported (the kernel table has the rows then).
CREATE TABLE kernel_sum (
  rank_id INTEGER NOT NULL,  -- rank
  step INTEGER,              -- Step Id (NULL without a schedule)
  name_id INTEGER NOT NULL,  -- string.id of Name (op_summary: Op Name)
  type_id INTEGER,           -- string.id of Type (op_summary: OP Type)
  accelerator_core TEXT,     -- Accelerator Core (op_summary: Task Type)
  kernels INTEGER NOT NULL,  -- kernel rows with this key
  dur_ns INTEGER NOT NULL    -- Σ Duration(us) as ns
);

-- MindSpore's per-op FLOPs file flops_{rank}.txt (old profiler/ folder; FlopsParser / AscendFlopsGenerator): one row
-- per data line, in file order. Two forms: the total (FLOPs, FLOPS, FLOPS utilization) and, newer, the cube and
-- vector units apart (cube and vec columns; the total columns are then their sums). Scaled from the file's MFLOPs
-- (10^6) and GFLOPS (10^9 FLOP/s); a cell that is absent or not a number is NULL.
CREATE TABLE op_flops (
  rank_id INTEGER NOT NULL,   -- rank
  name TEXT NOT NULL,         -- op_full_name / full_kernel_name: the op's full scope name (Default/.../MatMul-op9)
  line INTEGER NOT NULL,      -- line of the file (1 = the header)
  flops REAL,                 -- floating-point operations: MFLOPs × 10^6, or cube + vector
  flops_per_s REAL,           -- FLOP/s: GFLOPS × 10^9, or cube + vector
  utilization_pct REAL,       -- FLOPS utilization(%) as written (the op's FLOPS ÷ the device peak); NULL in the
                              -- cube / vector form
  cube_flops REAL, cube_flops_per_s REAL, cube_utilization_pct REAL, -- the cube unit's figures (newer form only)
  vec_flops REAL, vec_flops_per_s REAL, vec_utilization_pct REAL     -- the vector unit's figures (newer form only)
);

-- MindSpore's flops_scope_{rank}.json: the FLOPs of the ops under each name scope, as the links of a Sankey diagram
-- (data.links[]), in file order. query::FlopsScopeQuery builds the scope tree from them.
CREATE TABLE flops_scope_link (
  rank_id INTEGER NOT NULL,   -- rank
  source TEXT NOT NULL,       -- the parent scope node as written ("Total" for the root)
  target TEXT NOT NULL,       -- the child scope node as written (e.g. "conv1-Conv2d(Default)")
  flops REAL NOT NULL         -- value (MFLOPs) × 10^6: FLOPs of the ops under target reached through source
);

-- operator_memory.csv
CREATE TABLE operator_memory (
  rank_id INTEGER NOT NULL, -- rank
  name TEXT NOT NULL,       -- Name
  size_kb REAL,             -- Size(KB)
  alloc_ts INTEGER,         -- Allocation Time(us) as epoch ns
  release_ts INTEGER,       -- Release Time(us) as epoch ns (NULL when not freed in the window)
  active_release_ts INTEGER,-- Active Release Time(us)
  dur INTEGER,              -- Duration(us) as ns
  active_dur INTEGER,       -- Active Duration(us) as ns
  alloc_allocated_mb REAL, alloc_reserved_mb REAL, alloc_active_mb REAL,       -- Allocation Total *
  release_allocated_mb REAL, release_reserved_mb REAL, release_active_mb REAL, -- Release Total *
  stream_ptr TEXT,          -- Stream Ptr
  device TEXT               -- Device Type
);

-- npu_module_mem.csv. Db exports: NPU_MODULE_MEM (ENUM_MODULE names, bytes -> MB).
CREATE TABLE npu_module_mem (
  rank_id INTEGER NOT NULL, device_id INTEGER, -- rank; Device_id when present
  component TEXT,           -- CANN module (SLOG, HCCL, RUNTIME, ...)
  ts INTEGER NOT NULL,      -- Timestamp(us) as epoch ns
  reserved_mb REAL,         -- Total Reserved(MB)
  device TEXT               -- Device, e.g. NPU:0
);

-- MindSpore data pipeline (minddata): the dataset operators of a rank, one row per operator and source file.
-- minddata_pipeline_raw_{rank}.csv and pipeline_profiling_{rank}.json describe the same operators; the CSV also has the
-- usage rate. query::PipelineQuery takes the CSV's rows when a rank has both.
CREATE TABLE pipeline_op (
  rank_id INTEGER NOT NULL,     -- rank
  source TEXT NOT NULL,         -- file kind of the row: minddata_pipeline_raw | pipeline_profiling
  op_id INTEGER NOT NULL,       -- op_id (0 is the operator that feeds the device queue)
  op_type TEXT NOT NULL,        -- op_type (BatchOp, MapOp, TFReader, ...)
  num_workers INTEGER,          -- num_workers: threads of the operator
  parent_id INTEGER,            -- the operator this one feeds (parent_id; the op listing it in children); NULL: root
  queue_capacity INTEGER,       -- output queue capacity in rows (output_queue_length, output_queue.length)
  queue_samples INTEGER,        -- output queue size samples (output_queue_size, output_queue.size); NULL: none
  queue_empty_samples INTEGER,  -- of them, samples with an empty queue
  queue_avg_size REAL,          -- output_queue_average_size, else the mean of the samples (rows)
  queue_usage_rate REAL,        -- output_queue_usage_rate as written (CSV only), NULL when absent
  sample_interval INTEGER       -- sample_interval / sampling_interval as written (ms)
);

-- minddata_cpu_utilization_{rank}.json: CPU use of the machine, the training process and each dataset operator,
-- sampled over the run; one row per series with its mean and maximum.
CREATE TABLE pipeline_cpu (
  rank_id INTEGER NOT NULL,     -- rank
  scope TEXT NOT NULL,          -- device (device_info: the whole host) | process (process_info) | op (op_info)
  op_id INTEGER,                -- op_info op_id for scope op, else NULL
  metric TEXT NOT NULL,         -- the series' key: user_utilization, sys_utilization, io_utilization, ...
  samples INTEGER NOT NULL,     -- values in the series
  avg_value REAL,               -- mean of the series (% for *_utilization), NULL for an empty series
  max_value REAL                -- largest value of the series, NULL for an empty series
);

-- device_queue_profiling_{rank}.txt: the size of the queue that feeds the device, one row per queue sample
-- ("1 <capacity> <step> <size> <time>" lines; the "0 ..." time lines are not imported).
CREATE TABLE pipeline_queue (
  rank_id INTEGER NOT NULL,     -- rank
  step INTEGER,                 -- step number (third field)
  size INTEGER NOT NULL,        -- batches in the queue when sampled (fourth field)
  capacity INTEGER,             -- queue capacity (second field)
  sample_time INTEGER           -- fifth field as written (the sampling time), NULL when absent
);

-- MindSpore's memory_usage_details_{rank}.json: per graph, the memory in use at each node (MindSpore samples graphs of
-- more than 2,000 nodes: every n-th node with its value). The summary file's figures are rank_info rows
-- memory_usage_summary.<key> (capacity, peak_mem, static_mem, allocations, deallocations; GiB as written).
CREATE TABLE ms_memory_node (
  rank_id INTEGER NOT NULL,     -- rank
  graph_id INTEGER,             -- graph_id of the graph (its key when absent)
  node_index INTEGER NOT NULL,  -- place of the node in the graph's nodes array (0-based)
  node_id INTEGER,              -- node_id as written
  name TEXT NOT NULL,           -- node name as written: the op name without its scope (MatMul-op9)
  memory_gib REAL NOT NULL      -- memory in use at the node (the graph's lines value), GiB (1024^3 bytes)
);

-- trace_view.json processes (ph M process_name / process_labels / process_sort_index).
CREATE TABLE process (
  rank_id INTEGER NOT NULL, -- rank
  pid INTEGER NOT NULL,     -- pid as written (device pids are large synthetic numbers)
  name TEXT,                -- process_name, NULL when the file has none
  label TEXT,               -- process_labels (CPU / NPU)
  sort_index INTEGER,       -- process_sort_index
  PRIMARY KEY (rank_id, pid)
);

-- trace_view.json threads (ph M thread_name / thread_sort_index, or first seen in an event).
CREATE TABLE thread (
  rank_id INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL, -- rank, process, thread id
  name TEXT,                -- thread_name
  sort_index INTEGER,       -- thread_sort_index
  PRIMARY KEY (rank_id, pid, tid)
);

-- Input files that slice args point into (args kept by reference, not copied into the model).
-- One row per imported trace_view.json or db export timeline; reads check size and mtime and refuse a changed file.
CREATE TABLE source_file (
  id INTEGER PRIMARY KEY,      -- referenced by slice.args_file_id and kernel.pmu_file_id
  rank_id INTEGER NOT NULL,    -- rank.rank_id
  path TEXT NOT NULL,          -- absolute path of the file as imported (the rank_file.path of a trace_view row)
  size_bytes INTEGER NOT NULL, -- file size at import
  mtime_ns INTEGER NOT NULL    -- modification time at import, ns since the Unix epoch
);

-- trace_view.json complete events (ph X). Args are stored one of three ways: by byte range
-- (args_file_id, args_offset, args_len >= 2: trace_view.json), by db row (args_file_id = the .db export,
-- args_offset = the row's rowid, args_len = -(table kind) < 0, see io::DbSliceArgs: the args are built from
-- the row and its detail tables when asked), or as text (args: e.g. msprof JSON). Read them with
-- load::SourceDetails::sliceArgs.
CREATE TABLE slice (
  id INTEGER PRIMARY KEY,   -- slice id referenced by flow
  rank_id INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL, -- track
  ts INTEGER NOT NULL,      -- start, epoch ns (fixed-point parse of the µs string)
  dur INTEGER NOT NULL,     -- duration ns
  depth INTEGER NOT NULL,   -- nesting depth on its track (0 = outermost), by the rule in docs/loading.md
                            -- "Slice nesting and flows" (one io::SliceTracker per track)
  name_id INTEGER NOT NULL, -- string.id of name
  cat_id INTEGER,           -- string.id of cat, NULL when absent
  args TEXT,                -- args object as JSON text; NULL when absent or stored by reference
  args_file_id INTEGER,     -- source_file.id holding the args text; NULL when not by reference
  args_offset INTEGER,      -- byte offset of the args object's '{' in that file; the rowid for a db row
  args_len INTEGER          -- byte length of the raw args object text, '{' to '}' inclusive; < 0 for a db row
);

-- trace_view.json counters (ph C): one row per series value.
CREATE TABLE counter (
  rank_id INTEGER NOT NULL, pid INTEGER NOT NULL, -- track owner
  name_id INTEGER NOT NULL, -- string.id of the event name (e.g. "HBM 0/Read")
  series TEXT NOT NULL,     -- args key (e.g. "Read(MB/s)", "KB", "MHz")
  ts INTEGER NOT NULL,      -- epoch ns
  value REAL                -- value
);

-- trace_view.json flows (ph s / f pairs with the same cat and id). One row per s->f pair.
CREATE TABLE flow (
  rank_id INTEGER NOT NULL, -- rank
  cat TEXT NOT NULL,        -- async_npu | HostToDevice | async_task_queue | fwdbwd | ...
  name TEXT,                -- event name (torch_to_npu, HostToDevice936, ...)
  flow_id TEXT NOT NULL,    -- id as text (HostToDevice ids can exceed 64 bits)
  src_pid INTEGER, src_tid INTEGER, src_ts INTEGER, -- start point (NULL if the file has no s)
  dst_pid INTEGER, dst_tid INTEGER, dst_ts INTEGER, -- end point (NULL if the file has no f)
  src_slice_id INTEGER,     -- slice enclosing the start point, NULL when none
  dst_slice_id INTEGER      -- slice enclosing the end point, NULL when none
);

-- MindSpore parallel_strategy_{rank}.json: the computation graph of one pipeline stage, kept for one rank per stage
-- (the lowest rank config.stageDevices lists for the file's stage; a stage's ranks hold the same graph, which
-- MindInsight merges the same way) or, without stageDevices, for every rank. One row per operator node (parameters
-- and constants are not nodes), in the file's order, which is the execution order.
CREATE TABLE strategy_node (
  rank_id    INTEGER NOT NULL, -- rank whose file it is
  stage      INTEGER NOT NULL, -- config.stageId (0 when absent)
  node_index INTEGER NOT NULL, -- 1-based position among the file's operator nodes: the execution order
  node_key   TEXT NOT NULL,    -- the node's "name" in the file, which inputs refer to
  name       TEXT NOT NULL,    -- fullName (Default/network-Net/MatMul-op12)
  op_type    TEXT NOT NULL,    -- opType
  scope      TEXT NOT NULL,    -- scope ('' when absent)
  instance_name TEXT,          -- instanceName (NULL when absent or empty)
  special    INTEGER NOT NULL, -- bits: 1 sharded by a strategy (in_strategy, else gen_strategy), 2 redistribution
                               -- (instanceName contains "redistribution"), 4 gradient aggregation ("grad_mirror")
  strategy   TEXT,             -- that strategy as nested lists, e.g. [[2, 1], [1, 4]]; NULL when none
  group_name TEXT,             -- the group attribute when it is a string (a communication group), else NULL
  group_ranks TEXT,            -- the group_ranks attribute
  sr_tag     INTEGER,          -- Send / Receive: the sr_tag attribute
  peer_rank  INTEGER,          -- Send: dest_rank; Receive: src_rank
  output_shape TEXT,           -- the shapes attribute, else outputType's shapes, as nested lists
  output_type TEXT,            -- outputType's data type, e.g. DT_TENSOR[DT_FLOAT32]
  inputs     TEXT NOT NULL,    -- the input names as written (node keys, parameters, constants), comma separated
  attributes TEXT NOT NULL     -- the other attributes, one "name=value" line each, a value cut at 256 characters
);

-- The strategy graph's edges: an input of a strategy_node that names an operator node of the same file.
CREATE TABLE strategy_edge (
  rank_id   INTEGER NOT NULL, -- strategy_node.rank_id
  src_index INTEGER NOT NULL, -- strategy_node.node_index of the input
  dst_index INTEGER NOT NULL, -- strategy_node.node_index of the node reading it
  control   INTEGER NOT NULL  -- 1 CONTROL_EDGE, 0 DATA_EDGE (or no type)
);

-- Problems found while importing. Never fatal: the rest of the files still load.
CREATE TABLE parse_issue (
  id INTEGER PRIMARY KEY, -- insertion order
  severity TEXT NOT NULL, -- error | warning | info
  rank_id INTEGER,        -- rank the file belongs to, NULL for workspace-level problems
  file TEXT,              -- file path, NULL when not tied to a file
  line INTEGER,           -- 1-based line (CSV, small JSON files), NULL when unknown; large JSON gives byte offsets in the message
  message TEXT NOT NULL,  -- what went wrong and what was done about it (English, as the CLI prints it)
  message_template TEXT   -- message as a translatable template (compact JSON of npuscope::TrText: the English
                          -- template, its context and arguments) for the GUI; NULL: message only (verbatim text)
);
