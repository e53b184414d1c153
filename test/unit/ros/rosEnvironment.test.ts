import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkBuiltForThisRos, RosEnvironmentError } from '../../../src/ros/rosEnvironment';

describe('rosEnvironment: rclnodejs built for this ROS', function () {
  let dir: string;
  let binding: string;
  const stamp = (text: string) => fs.writeFileSync(path.join(dir, 'build', '.htp-stamp'), text);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcl-stamp-'));
    fs.mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
    binding = path.join(dir, 'build', 'Release', 'rclnodejs.node');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("accepts the binding bootstrap stamped with this environment's ROS", function () {
    stamp('2.2.0 v20.20.2 1 /usr/lib/python3.11 jazzy sourced /opt/ros/jazzy patches e585');
    checkBuiltForThisRos(binding, 'jazzy sourced /opt/ros/jazzy');
  });

  it('refuses a binding built for another ROS, naming both', function () {
    stamp('2.2.0 v20.20.2 1 /usr/lib/python3.11 jazzy sourced /opt/ros/jazzy patches e585');
    assert.throws(
      () => checkBuiltForThisRos(binding, 'kilted wheels 0123abcd pip==26.3'),
      (e: unknown) =>
        e instanceof RosEnvironmentError &&
        /built for jazzy sourced \/opt\/ros\/jazzy, this environment is kilted wheels/.test(
          e.message,
        ) &&
        /run scripts\/bootstrap\.sh/.test(e.message),
    );
  });

  it('does not judge without a stamp (a colcon install) or without an id', function () {
    checkBuiltForThisRos(binding, 'kilted wheels 0123abcd pip==26.3');
    stamp('2.2.0 v20.20.2 1 /usr/lib/python3.11 jazzy sourced /opt/ros/jazzy patches e585');
    checkBuiltForThisRos(binding, undefined);
  });
});
