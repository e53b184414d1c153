"""A camera stand-in for `npm run bench:e2e`: an rclpy process that publishes real photos as rgb8.

  frame_publisher.py --topic T --width W --height H [--no-wait] FILE.rgb [FILE.rgb ...]

Each FILE is W*H*3 bytes of packed rgb8 (the bench writes them from the photos). Messages are
built once and reused; only the stamp changes, set to the wall clock right before publish, so a
receiver measures stamp -> arrival. Sensor-data QoS, as camera drivers publish.

Commands, one per line on stdin (replies on stdout, one line each):
  next                 publish the next photo now            -> "sent SEC NANOSEC"
  rate HZ SECONDS      publish at HZ for SECONDS, on a fixed  -> "done SENT ELAPSED_S"
                       schedule (a late frame is not made up)
  quit                 exit
Before the first command it waits for a subscriber and prints "ready" (or "error ..." and exits 1);
with --no-wait it is ready at once (`npm run bench:soak` streams before the node subscribes, as a
camera does before a lifecycle manager activates the detector).
"""
import argparse
import sys
import time

import rclpy
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import Image


def load(files, width, height):
    msgs = []
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        if len(data) != width * height * 3:
            raise SystemExit(f"error {f}: {len(data)} bytes, expected {width}x{height}x3")
        m = Image()
        m.header.frame_id = "camera"
        m.height, m.width, m.encoding, m.step = height, width, "rgb8", width * 3
        m.data = data
        msgs.append(m)
    return msgs


def stamp_and_publish(pub, m):
    now = time.time_ns()
    m.header.stamp.sec, m.header.stamp.nanosec = now // 1_000_000_000, now % 1_000_000_000
    pub.publish(m)
    return now


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--topic", required=True)
    p.add_argument("--width", type=int, required=True)
    p.add_argument("--height", type=int, required=True)
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--no-wait", action="store_true")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    msgs = load(args.files, args.width, args.height)
    rclpy.init()
    node = rclpy.create_node("e2e_frame_publisher")
    try:
        pub = node.create_publisher(Image, args.topic, qos_profile_sensor_data)
        deadline = time.time() + args.timeout
        while not args.no_wait and pub.get_subscription_count() == 0 and time.time() < deadline:
            time.sleep(0.05)
        if not args.no_wait and pub.get_subscription_count() == 0:
            print(f"error no subscriber on {args.topic} after {args.timeout} s", flush=True)
            return 1
        print("ready", flush=True)
        seq = 0
        for line in sys.stdin:
            cmd = line.split()
            if not cmd:
                continue
            if cmd[0] == "quit":
                break
            if cmd[0] == "next":
                now = stamp_and_publish(pub, msgs[seq % len(msgs)])
                seq += 1
                print(f"sent {now // 1_000_000_000} {now % 1_000_000_000}", flush=True)
            elif cmd[0] == "rate" and len(cmd) == 3:
                period, seconds = 1.0 / float(cmd[1]), float(cmd[2])
                start = time.time()
                sent = 0
                while True:
                    target = start + sent * period
                    if target - start >= seconds:
                        break
                    delay = target - time.time()
                    if delay > 0:
                        time.sleep(delay)
                    stamp_and_publish(pub, msgs[seq % len(msgs)])
                    seq += 1
                    sent += 1
                print(f"done {sent} {time.time() - start:.3f}", flush=True)
            else:
                print(f"error unknown command {line.strip()!r}", flush=True)
        return 0
    finally:
        node.destroy_node()
        rclpy.shutdown()


if __name__ == "__main__":
    sys.exit(main())
