"""Perception on a camera: one managed perception node, or a container of pipelines.

    ros2 launch htp_perception perception.launch.py image:=/camera/image_raw
    ros2 launch htp_perception perception.launch.py params:=/path/to/my_perception.yaml
    ros2 launch htp_perception perception.launch.py container:=true pipelines:=/path/to/pipelines.yaml
    ros2 launch htp_perception perception.launch.py autostart:=false   # a lifecycle manager drives them
    ros2 launch htp_perception perception.launch.py container:=true rviz:=true  # and rviz2 to watch

Every perception node is a managed (lifecycle) node: with autostart (the default) it configures and
activates itself; otherwise it waits, unconfigured, for `ros2 lifecycle set` or a nav2-style
lifecycle manager (ChangeState on /<name>/change_state).

rviz:=true also starts rviz2 (package rviz2, not a dependency of this one: install it where you
watch) with config/perception.rviz: the detector's annotated image and the semantic colour overlay.
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition, UnlessCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('htp_perception')
    image = LaunchConfiguration('image')
    container = LaunchConfiguration('container')
    autostart = {'autostart': LaunchConfiguration('autostart')}
    rviz = LaunchConfiguration('rviz')
    camera = [('image', image), ('image/compressed', [image, '/compressed'])]
    return LaunchDescription([
        DeclareLaunchArgument('image', default_value='/camera/image_raw',
                              description='sensor_msgs/Image topic of the camera'),
        DeclareLaunchArgument('container', default_value='false',
                              description='true: run the pipelines of `pipelines` in one process'),
        DeclareLaunchArgument('params', default_value=os.path.join(share, 'config', 'perception.yaml'),
                              description='parameters file of the single perception node'),
        DeclareLaunchArgument('pipelines', default_value=os.path.join(share, 'config', 'pipelines.yaml'),
                              description='parameters file naming the container pipelines and theirs'),
        DeclareLaunchArgument('name', default_value='perception',
                              description='node name of the single perception node'),
        DeclareLaunchArgument('autostart', default_value='true',
                              description='configure and activate at start (false: a lifecycle manager does)'),
        DeclareLaunchArgument('rviz', default_value='false',
                              description='true: also start rviz2 with config/perception.rviz'),
        Node(package='htp_perception', executable='perception_node', name=LaunchConfiguration('name'),
             output='screen', parameters=[LaunchConfiguration('params'), autostart],
             remappings=camera, condition=UnlessCondition(container)),
        # Pipeline names and parameters come from the file; no `name` here, which would rename
        # every node of the process.
        Node(package='htp_perception', executable='perception_container', output='screen',
             parameters=[LaunchConfiguration('pipelines')], remappings=camera,
             condition=IfCondition(container)),
        Node(package='rviz2', executable='rviz2', name='rviz2', output='screen',
             arguments=['-d', os.path.join(share, 'config', 'perception.rviz')],
             condition=IfCondition(rviz)),
    ])
