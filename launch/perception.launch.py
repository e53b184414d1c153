"""Perception on a camera: one managed perception node, or a container of pipelines.

    ros2 launch htp_perception perception.launch.py image:=/camera/image_raw
    ros2 launch htp_perception perception.launch.py params:=/path/to/my_perception.yaml
    ros2 launch htp_perception perception.launch.py container:=true pipelines:=/path/to/pipelines.yaml
    ros2 launch htp_perception perception.launch.py autostart:=false   # a lifecycle manager drives them
    ros2 launch htp_perception perception.launch.py namespace:=robot1 use_sim_time:=true
    ros2 launch htp_perception perception.launch.py large_frames:=true   # camera frames in shared memory
    ros2 launch htp_perception perception.launch.py container:=true rviz:=true  # and rviz2 to watch
    ros2 launch htp_perception perception.launch.py container:=true stack:=permissive  # Apache/MIT weights only
    ros2 launch htp_perception perception.launch.py cameras:='[front, rear, left, right]'  # one model, four cameras

Every perception node is a managed (lifecycle) node, declared here as a LifecycleNode: with
autostart (the default) it configures and activates itself; otherwise it waits, unconfigured, for
`ros2 lifecycle set` or a nav2-style lifecycle manager (ChangeState on /<name>/change_state). The
container hosts several lifecycle nodes in one process (named by its pipelines file), so it is
started as a plain process.

Parameter files default to the installed ones (share/htp_perception/config); give your own with
params:= / pipelines:=. Nothing here sets a ROS domain, discovery range or DDS profile: the robot's
apply. large_frames:=true gives these processes config/fastdds_large_frames.xml (16 MB Fast DDS
shared-memory segments; docs/robot.md). enclave:= names the SROS2 enclave of the processes (with
ROS_SECURITY_ENABLE and ROS_SECURITY_KEYSTORE set; '/' is rcl's default).

stack:=permissive takes config/perception-permissive.yaml and config/pipelines-permissive.yaml
instead of the default files (NanoDet, MoveNet, MediaPipe selfie, VOC DeepLabV3: no AGPL-3.0
weights); a params:= or pipelines:= given explicitly wins.

cameras:= names camera namespaces one model serves (each `<camera>/image_raw`, outputs under
`~/<camera>/`; docs/nodes.md, "Several cameras, one model"); in the container every pipeline
serves them. Left empty (the default) the nodes take the single `image` input. rcl cannot type an
empty array, so the parameter is handed over only when the argument names cameras: each node
below is declared twice, with and without it.

rviz:=true also starts rviz2 (package rviz2, not a dependency of this one: install it where you
watch) with config/perception.rviz: the detector's annotated image and the semantic colour overlay.
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration, PythonExpression
from launch_ros.actions import LifecycleNode, Node


def by_stack(stack, chosen, default_file, permissive_file):
    """The permissive stack's file with stack:=permissive when the user left `chosen` at its default."""
    return PythonExpression(["'", permissive_file, "' if '", stack, "' == 'permissive' and '", chosen,
                             "' == '", default_file, "' else '", chosen, "'"])


def when(container, container_wanted, cameras, cameras_wanted):
    """True when container:= is (or is not) true and cameras:= names (or does not name) cameras."""
    return IfCondition(PythonExpression([
        "('", container, "'.lower() in ('true', '1')) == ", str(container_wanted),
        # Triple quotes: a list may quote its names ("['front', 'rear']").
        " and ('''", cameras, "'''.strip() not in ('', '[]')) == ", str(cameras_wanted)]))


def generate_launch_description():
    share = get_package_share_directory('htp_perception')
    stack = LaunchConfiguration('stack')
    default_params = os.path.join(share, 'config', 'perception.yaml')
    default_pipelines = os.path.join(share, 'config', 'pipelines.yaml')
    params = by_stack(stack, LaunchConfiguration('params'), default_params,
                      os.path.join(share, 'config', 'perception-permissive.yaml'))
    pipelines = by_stack(stack, LaunchConfiguration('pipelines'), default_pipelines,
                         os.path.join(share, 'config', 'pipelines-permissive.yaml'))
    image = LaunchConfiguration('image')
    container = LaunchConfiguration('container')
    cameras = LaunchConfiguration('cameras')
    node_one_camera = when(container, False, cameras, False)
    node_cameras = when(container, False, cameras, True)
    container_one_camera = when(container, True, cameras, False)
    container_cameras = when(container, True, cameras, True)
    camera_list = {'cameras': cameras}
    namespace = LaunchConfiguration('namespace')
    sim_time = {'use_sim_time': LaunchConfiguration('use_sim_time')}
    autostart = {'autostart': LaunchConfiguration('autostart')}
    rviz = LaunchConfiguration('rviz')
    camera = [('image', image), ('image/compressed', [image, '/compressed'])]
    large_frames = {'HTP_PERCEPTION_LARGE_FRAMES': LaunchConfiguration('large_frames')}
    enclave = ['--enclave', LaunchConfiguration('enclave')]
    return LaunchDescription([
        DeclareLaunchArgument('image', default_value='/camera/image_raw',
                              description='sensor_msgs/Image topic of the camera'),
        DeclareLaunchArgument('cameras', default_value='',
                              description="camera namespaces one model serves, e.g. '[front, rear]' (empty: the image input)"),
        DeclareLaunchArgument('container', default_value='false',
                              description='true: run the pipelines of `pipelines` in one process'),
        DeclareLaunchArgument('stack', default_value='default', choices=['default', 'permissive'],
                              description='permissive: the parameter files whose weights are all Apache-2.0 or MIT'),
        DeclareLaunchArgument('params', default_value=os.path.join(share, 'config', 'perception.yaml'),
                              description='parameters file of the single perception node'),
        DeclareLaunchArgument('pipelines', default_value=os.path.join(share, 'config', 'pipelines.yaml'),
                              description='parameters file naming the container pipelines and theirs'),
        DeclareLaunchArgument('name', default_value='perception',
                              description='node name of the single perception node'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of the nodes (their topics and services)'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='true: stamps and rates follow /clock (simulation, bag replay)'),
        DeclareLaunchArgument('autostart', default_value='true',
                              description='configure and activate at start (false: a lifecycle manager does)'),
        DeclareLaunchArgument('large_frames', default_value='false',
                              description='true: Fast DDS profile with 16 MB shared-memory segments (camera frames)'),
        DeclareLaunchArgument('enclave', default_value='/',
                              description='SROS2 enclave of the processes (used when ROS 2 security is enabled)'),
        DeclareLaunchArgument('rviz', default_value='false',
                              description='true: also start rviz2 with config/perception.rviz'),
        LifecycleNode(package='htp_perception', executable='perception_node',
                      name=LaunchConfiguration('name'), namespace=namespace, output='screen',
                      parameters=[params, autostart, sim_time],
                      remappings=camera, additional_env=large_frames, ros_arguments=enclave,
                      condition=node_one_camera),
        LifecycleNode(package='htp_perception', executable='perception_node',
                      name=LaunchConfiguration('name'), namespace=namespace, output='screen',
                      parameters=[params, autostart, sim_time, camera_list],
                      remappings=camera, additional_env=large_frames, ros_arguments=enclave,
                      condition=node_cameras),
        # Pipeline names and parameters come from the file; no `name` here, which would rename
        # every node of the process. use_sim_time (and cameras) apply to each of them.
        Node(package='htp_perception', executable='perception_container', namespace=namespace,
             output='screen', parameters=[pipelines, sim_time],
             remappings=camera, additional_env=large_frames, ros_arguments=enclave,
             condition=container_one_camera),
        Node(package='htp_perception', executable='perception_container', namespace=namespace,
             output='screen', parameters=[pipelines, sim_time, camera_list],
             remappings=camera, additional_env=large_frames, ros_arguments=enclave,
             condition=container_cameras),
        Node(package='rviz2', executable='rviz2', name='rviz2', output='screen',
             arguments=['-d', os.path.join(share, 'config', 'perception.rviz')],
             parameters=[sim_time], condition=IfCondition(rviz)),
    ])
