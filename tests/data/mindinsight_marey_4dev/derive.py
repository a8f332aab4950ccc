# Derives this folder's per-device MindSpore timeline files from MindInsight's own Marey data of a real job
# (see SOURCE.txt). Run from this folder: python3 derive.py PATH/TO/marey_graph/ascend_marey_timeline_1.json
import json
import sys

marey = json.load(open(sys.argv[1]))
for device, ops in marey["maps"].items():
    n = int(device.replace("device", ""))
    events = []
    for name, v in sorted(ops.items(), key=lambda kv: (kv[1]["st"], kv[0])):
        events.append({"name": name, "ph": "X", "pid": 1, "tid": "1", "ts": round(v["st"], 3),
                       "dur": round(v["ed"] - v["st"], 3), "args": {"type": name.split("-op")[0]}})
    with open(f"profiler/ascend_timeline_display_{n}.json", "w") as out:
        json.dump(events, out, separators=(",", ":"))
    # The timeline's clock is the Marey data's (µs): a zero counter keeps it as written.
    with open(f"profiler/min_cycle_counter_{n}.txt", "w") as out:
        out.write("0.0")
    # One step over the device's tasks, in 10 ns ticks (step_trace_raw's unit).
    start = min(v["st"] for v in ops.values())
    end = max(v["ed"] for v in ops.values())
    s, e = round(start * 100), round(end * 100)
    with open(f"profiler/step_trace_raw_{n}_detail_time.csv", "w") as out:
        out.write("step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n")
        out.write(f"1,{s},{e},{e - s},{s},{e},0,{e - s},0\n")
    # The pipeline layout (2 stages of 4 ranks, as the Marey data's stage_data says) by the file name MindInsight's
    # cluster analysis writes; the header only, no figures of another job.
    stages = len(marey["stage_data"])
    with open(f"profiler/ascend_cluster_analyse_pipeline-parallel_{stages}_{len(marey['maps'])}_{n}.csv", "w") as out:
        out.write("computation_time,communication_alone_time,stage_time,receive_alone_time,"
                  "collective_communication_alone_time\n")
